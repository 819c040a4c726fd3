import type { Check } from "./check.ts";
import { type Exchange, timeline } from "./exchange.ts";
import { fixInputChecks } from "./fix-input.ts";
import { inputRequiredChecks } from "./input-required.ts";
import { reinitializeChecks } from "./reinitialize.ts";
import { renegotiateChecks } from "./renegotiate.ts";
import { replayChecks } from "./replay.ts";
import { retryChecks } from "./retries.ts";
import type { SlimEntry } from "../journal/slim.ts";
import { streamRecoveryChecks } from "./stream-recovery.ts";

export { CheckSchema, CheckStatusSchema } from "./check.ts";
export type { Check, CheckStatus } from "./check.ts";

/** Every check family, in the order their checks are listed. */
export const FAMILIES: readonly ((all: readonly Exchange[]) => Check[])[] = [
  retryChecks,
  replayChecks,
  inputRequiredChecks,
  fixInputChecks,
  reinitializeChecks,
  renegotiateChecks,
  (all) => streamRecoveryChecks(all),
];

/**
 * Judges the client from the journal of the active scenario. A check is listed only when its trigger (a fault it
 * judges the reaction to) is in the journal; it is "info" when the client did nothing that could be judged.
 * The checks read the journal, not the scenario, so they judge the same faults under any scenario.
 */
export function runChecks(_scenario: string | undefined, entries: readonly SlimEntry[]): Check[] {
  const all = timeline(entries);
  return FAMILIES.flatMap((family) => family(all));
}
