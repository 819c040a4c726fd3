import { authChecks } from "./auth.ts";
import { badAnswerChecks } from "./bad-answer.ts";
import { catalogChangeChecks } from "./catalog-change.ts";
import { concurrencyChecks } from "./concurrency.ts";
import type { Check } from "./check.ts";
import { cursorChecks } from "./cursor.ts";
import { elicitationChecks } from "./elicitation.ts";
import { type Exchange, timeline } from "./exchange.ts";
import { fixInputChecks } from "./fix-input.ts";
import { longWaitChecks } from "./long-wait.ts";
import { inputRequiredChecks } from "./input-required.ts";
import { methodNotFoundChecks } from "./method-not-found.ts";
import { progressChecks } from "./progress.ts";
import { reinitializeChecks } from "./reinitialize.ts";
import { renegotiateChecks } from "./renegotiate.ts";
import { replayChecks } from "./replay.ts";
import { retryChecks } from "./retries.ts";
import { sessionIdRefusalChecks } from "./session-id-refusal.ts";
import type { SlimEntry } from "../journal/slim.ts";
import type { EndpointRequest, GrantEvent } from "../oauth/records.ts";
import { streamRecoveryChecks } from "./stream-recovery.ts";
import { streamReconnectChecks } from "./stream-reconnect.ts";
import { taskChecks } from "./tasks.ts";
import { timeoutChecks } from "./timeouts.ts";
import { toolErrorChecks } from "./tool-error.ts";

export { CheckSchema, CheckStatusSchema } from "./check.ts";
export type { Check, CheckStatus } from "./check.ts";

/** Every check family read from the journal alone, in the order their checks are listed (the auth checks follow). */
const FAMILIES: readonly ((all: readonly Exchange[]) => Check[])[] = [
  retryChecks,
  concurrencyChecks,
  longWaitChecks,
  replayChecks,
  inputRequiredChecks,
  elicitationChecks,
  fixInputChecks,
  reinitializeChecks,
  renegotiateChecks,
  methodNotFoundChecks,
  badAnswerChecks,
  sessionIdRefusalChecks,
  (all) => streamRecoveryChecks(all),
  streamReconnectChecks,
  timeoutChecks,
  progressChecks,
  catalogChangeChecks,
  cursorChecks,
  taskChecks,
  toolErrorChecks,
];

/** What the checks read beside the journal, and how they share the thread. */
export interface CheckContext {
  /**
   * The token endpoint's answers since a time (ms), for the auth checks that judge a grant; undefined (or absent)
   * when the session runs no authorization server, and then only the auth loop is judged.
   */
  grantsSince?: (sinceMs: number) => readonly GrantEvent[] | undefined;
  /** The requests to an authorization-server endpoint auth.server_faults faults (at most MAX_EVENTS); none otherwise. */
  endpointRequests?: () => readonly EndpointRequest[];
  /** Awaited after each family, so a long journal lets other requests run in between (workerd has one thread). */
  pause?: () => Promise<void>;
}

/**
 * Judges the client from the journal of the active scenario: the one composition of the checks, used by
 * GET /api/sessions/{id}/checks and by the tests. A check is listed only when its trigger (a fault it judges the
 * reaction to) is in the journal; it is "info" when the client did nothing that could be judged. The checks read
 * the journal, not the scenario, so they judge the same faults under any scenario.
 */
export async function runChecks(entries: readonly SlimEntry[], context: CheckContext = {}): Promise<Check[]> {
  const all = timeline(entries);
  const checks: Check[] = [];
  for (const family of FAMILIES) {
    checks.push(...family(all));
    await context.pause?.();
  }
  // Every grant the server kept (at most MAX_EVENTS), not only those after the first request: a token the client got
  // before its first MCP request (or before a reset) is still the one that expires, and its issue must be known.
  checks.push(...authChecks(all, context.grantsSince?.(0), context.endpointRequests?.()));
  return checks;
}

/**
 * The same composition at once, without yielding between families: for a journal small enough to judge in one turn
 * (tests, generated journals). `grants` are the token endpoint's answers, as `grantsSince` would give them.
 */
export function checksOf(entries: readonly SlimEntry[], grants?: readonly GrantEvent[], requests?: readonly EndpointRequest[]): Check[] {
  const all = timeline(entries);
  return [...FAMILIES.flatMap((family) => family(all)), ...authChecks(all, grants, requests)];
}
