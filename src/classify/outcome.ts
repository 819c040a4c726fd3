import type { Finding, Layer, Outcome, RetryAdvice, Verdict } from "./verdict.ts";

/** The layer each outcome belongs to; INVALID_TOOL_RESULT is protocol: the result broke the protocol's schema. */
export const OUTCOME_LAYER: Readonly<Record<Outcome, Layer>> = {
  TOOL_SUCCESS: "application",
  TOOL_ERROR: "application",
  INVALID_TOOL_RESULT: "protocol",
  INPUT_REQUIRED: "interaction",
  JSONRPC_ERROR: "protocol",
  MALFORMED_JSON: "protocol",
  INVALID_ENVELOPE: "protocol",
  HTTP_ERROR: "transport",
  STREAM_INCOMPLETE: "transport",
  NOTIFICATION_ACCEPTED: "transport",
};

const RESERVED = new Set(["outcome", "layer", "status", "code", "retry", "findings"]);

/** Assembles a verdict in a stable key order, dropping undefined details. */
export function buildVerdict(
  outcome: Outcome,
  retry: RetryAdvice,
  findings: readonly Finding[],
  details: Record<string, unknown>,
): Verdict {
  const status = typeof details.status === "number" && Number.isSafeInteger(details.status) ? details.status : undefined;
  const code = typeof details.code === "number" && Number.isSafeInteger(details.code) ? details.code : undefined;
  const verdict: Verdict = {
    outcome,
    layer: OUTCOME_LAYER[outcome],
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    retry,
    findings: [...findings],
  };
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined || RESERVED.has(key)) continue;
    verdict[key] = value;
  }
  return verdict;
}
