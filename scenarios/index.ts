import { z } from "zod";
import type { Scenario } from "../src/mcp/scenario.ts";
import baseline from "./baseline.ts";
import httpStatusSequence from "./errors/http-status-sequence.ts";
import jsonrpcError from "./errors/jsonrpc-error.ts";
import toolError from "./errors/tool-error.ts";
import approval from "./elicitation/approval.ts";
import decline from "./elicitation/decline.ts";
import urlMode from "./elicitation/url-mode.ts";
import sdkV2 from "./compat/sdk-v2.ts";
import unauthorized from "./auth/unauthorized.ts";
import insufficientScope from "./auth/insufficient-scope.ts";
import tokenExpiry from "./auth/token-expiry.ts";
import serverFaults from "./auth/server-faults.ts";
import catalogMutation from "./catalog/mutation.ts";
import badCursor from "./pagination/bad-cursor.ts";
import expireAfter from "./session/expire-after.ts";
import missingId from "./session/missing-id.ts";
import script from "./script.ts";
import statusPerMethod from "./errors/status-per-method.ts";
import stallBeforeHeaders from "./timeouts/stall-before-headers.ts";
import stallMidStream from "./timeouts/stall-mid-stream.ts";
import slowDrip from "./timeouts/slow-drip.ts";
import neverComplete from "./timeouts/never-complete.ts";
import cutBeforeResponse from "./streams/cut-before-response.ts";
import cutWithResume from "./streams/cut-with-resume.ts";
import listenClose from "./streams/listen-close.ts";
import invalidJson from "./malformed/invalid-json.ts";
import truncatedJson from "./malformed/truncated-json.ts";
import wrongContentType from "./malformed/wrong-content-type.ts";
import htmlErrorPage from "./malformed/html-error-page.ts";
import wrongId from "./envelope/wrong-id.ts";
import resultAndError from "./envelope/result-and-error.ts";
import missingJsonrpc from "./envelope/missing-jsonrpc.ts";
import nullId from "./envelope/null-id.ts";
import contentNotArray from "./results/content-not-array.ts";
import unknownResultType from "./results/unknown-result-type.ts";
import missingResultType from "./results/missing-result-type.ts";
import retryAfterSeconds from "./ratelimit/retry-after-seconds.ts";
import retryAfterDate from "./ratelimit/retry-after-date.ts";
import rateLimitConcurrency from "./ratelimit/concurrency.ts";
import unsupportedVersion from "./version/unsupported.ts";
import conformance from "./conformance/index.ts";
import replay from "./replay.ts";
import facetUnavailable from "./catalog/facet-unavailable.ts";
import catalogPagination from "./catalog/pagination.ts";
import longRunning from "./progress/long-running.ts";
import structuredMismatch from "./results/structured-mismatch.ts";
import oversized from "./results/oversized.ts";
import intermediaryProxy from "./intermediary/proxy.ts";
import pollRateLimited from "./tasks/poll-rate-limited.ts";
import inputRounds from "./tasks/input-rounds.ts";
import lostTask from "./tasks/lost.ts";
import taskLifecycle from "./tasks/lifecycle.ts";
import { TEST_KITCHEN_ALIASES } from "./test-kitchen.ts";
import { aliasScenario, type ScenarioAlias } from "../src/scenario-kit/alias.ts";

/** The registry: one import and one entry per scenario file. */
export const SCENARIOS: readonly Scenario[] = [baseline, httpStatusSequence, jsonrpcError, toolError, approval,
  decline, urlMode, sdkV2, unauthorized, insufficientScope, tokenExpiry, serverFaults, catalogMutation, badCursor, expireAfter, missingId, script,
  statusPerMethod, stallBeforeHeaders, stallMidStream, slowDrip, neverComplete, cutBeforeResponse, cutWithResume, listenClose,
  invalidJson, truncatedJson, wrongContentType, htmlErrorPage, wrongId, resultAndError, missingJsonrpc, nullId,
  contentNotArray, unknownResultType, missingResultType, retryAfterSeconds, retryAfterDate, unsupportedVersion,
  conformance, replay, facetUnavailable, catalogPagination, pollRateLimited, longRunning,
  structuredMismatch, oversized, intermediaryProxy,
  rateLimitConcurrency,
  inputRounds, lostTask, taskLifecycle,
];

/** Params every scenario accepts besides its own. */
const CommonParams = {
  responseMode: z.enum(["json", "sse"]).default("json").describe("Answer requests with one JSON body or on an SSE stream"),
};

/**
 * A scenario by id, or by an alias (MCP Test Kitchen's ids, scenarios/test-kitchen.ts): an alias resolves to a
 * scenario of the alias's id that runs the answering scenario with the mapped params, so every caller (creation,
 * proxy mode's refusal, the session's requests) treats it as a scenario, and the session stores the id asked for.
 */
export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id) ?? ALIAS_SCENARIOS.get(id);
}

/** Whether the scenario with this id answers from a recording (its declared trait); false for an unknown id. */
export function answersFromRecording(id: string): boolean {
  return findScenario(id)?.answersFromRecording === true;
}

/** The id of the scenario an uploaded recording is replayed with: the one that declares it answers from a recording. */
export const RECORDING_SCENARIO_ID: string = recordingScenarioId();

function recordingScenarioId(): string {
  const found = SCENARIOS.filter((s) => s.answersFromRecording);
  // A programming error, caught first by test/scenarios/traits.test.ts: recordings would have nothing to replay them.
  if (found.length !== 1) throw new Error(`exactly one scenario must answer from a recording, not ${found.length}`);
  return found[0]!.id;
}

/**
 * The full params schema of a scenario: its own fields, the common ones, and no unknown keys. Its own checks (a
 * conflict between two names of one param, an alias's mapping) run on the whole object, common fields included.
 */
export function paramsSchema(scenario: Scenario): z.ZodObject {
  const own = scenario.params as unknown as z.ZodObject;
  return own.safeExtend(CommonParams).strict();
}

/** Each alias as a scenario of its own id, built once; a programming error (an unknown or repeated id) fails at load. */
function aliasScenarios(aliases: readonly ScenarioAlias[]): Map<string, Scenario> {
  const built = new Map<string, Scenario>();
  for (const alias of aliases) {
    const target = SCENARIOS.find((s) => s.id === alias.answeredBy);
    if (!target) throw new Error(`alias ${alias.id} names no scenario: ${alias.answeredBy}`);
    if (built.has(alias.id) || SCENARIOS.some((s) => s.id === alias.id)) throw new Error(`alias ${alias.id} repeats an id`);
    built.set(alias.id, aliasScenario(alias, target, paramsSchema(target)));
  }
  return built;
}

/** The aliases: each id another tool uses, the scenario that answers it, and how their params map. */
export const ALIASES: readonly ScenarioAlias[] = TEST_KITCHEN_ALIASES;
const ALIAS_SCENARIOS = aliasScenarios(ALIASES);

export function catalogue() {
  return SCENARIOS.map((s) => ({
    id: s.id,
    title: s.title,
    summary: s.summary,
    layer: s.layer,
    params: z.toJSONSchema(paramsSchema(s), { io: "input", target: "draft-2020-12" }),
    example: s.example,
    judging: s.judging,
  }));
}
