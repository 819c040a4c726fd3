import { z } from "zod";
import { BodyKindSchema } from "../../src/faults/schema.ts";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";
import { rateLimitOf, RateLimitParams } from "./fields.ts";
import { LONG_WAIT_CANNOT_TELL } from "./long-wait.ts";

/** An IMF-fixdate (RFC 9110 HTTP-date), rounded up to the next whole second so it never falls short. */
function httpDate(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toUTCString();
}

export default selectiveScenario({
  id: "ratelimit.retry_after_date",
  title: "429 with Retry-After HTTP-date",
  summary:
    "Like ratelimit.retry_after_seconds, but Retry-After is an HTTP-date: the server's clock plus `seconds`, rounded up to a whole second. A client must compare it with the response's Date header (or its own clock) to know how long to wait.",
  layer: "transport",
  params: {
    times: z.number().int().min(1).default(1).describe("How many selected requests get 429 before they succeed"),
    seconds: z.number().int().min(0).max(86_400).default(2).describe("How far in the future the Retry-After date lies"),
    body: BodyKindSchema.default("text"),
    ...RateLimitParams,
  },
  judging: {
    checks: ["http-retry-after-honoured", "http-retry-bounded", "long-retry-after-not-slept", "inflight-not-amplified", "non-idempotent-not-replayed"],
    cannotTell: LONG_WAIT_CANNOT_TELL,
  },
  example: { times: 1, seconds: 30 },
  fault: ({ params, now }) => ({ kind: "rate_limited", retryAfter: httpDate(now + params.seconds * 1000), body: params.body, ...rateLimitOf(params, params.seconds) }),
});
