import { z } from "zod";
import { BodyKindSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { select, SelectionShape } from "../../src/scenario-kit/select.ts";
import { rateLimitOf, RateLimitParams } from "./fields.ts";
import { LONG_WAIT_CANNOT_TELL } from "./long-wait.ts";

const Params = z
  .object({
    ...SelectionShape,
    times: z.number().int().min(1).default(1).describe("How many selected requests get 429 before they succeed"),
    seconds: z.number().int().min(0).max(86_400).default(1).describe("Retry-After, in seconds (and the RateLimit reset)"),
    body: BodyKindSchema.default("text"),
    ...RateLimitParams,
    retryAfter: z.boolean().default(true).describe("Send Retry-After; false leaves the RateLimit fields as the only wait hint"),
  })
  .refine((p) => p.retryAfter || p.rateLimit !== "none", {
    path: ["retryAfter"],
    message: 'retryAfter false needs a rateLimit form ("ietf", "draft" or "x"): without either the 429 names no wait',
  });

export default defineScenario({
  id: "ratelimit.retry_after_seconds",
  title: "429 with Retry-After seconds",
  summary:
    "The first `times` selected requests (tools/call by default) get 429 Too Many Requests with Retry-After as delta-seconds; later ones succeed. With `rateLimit` the 429 also carries RateLimit header fields whose quota is spent and resets in `seconds`; with `retryAfter: false` those fields are the only hint. No MCP version mentions 429 or Retry-After: this is plain HTTP (RFC 6585, RFC 9110). The request is not handled.",
  layer: "transport",
  params: Params,
  judging: {
    checks: ["http-retry-after-honoured", "http-retry-bounded", "long-retry-after-not-slept", "inflight-not-amplified", "non-idempotent-not-replayed"],
    cannotTell: LONG_WAIT_CANNOT_TELL,
  },
  example: { times: 2, seconds: 5, methods: ["tools/call", "tools/list"] },
  decide: ({ params, request, counters }) => {
    const reason = select(params, request, counters);
    if (reason === undefined) return undefined;
    return { fault: { kind: "rate_limited", retryAfter: params.retryAfter ? params.seconds : null, body: params.body, ...rateLimitOf(params, params.seconds) }, reason };
  },
});
