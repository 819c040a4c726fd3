import { z } from "zod";
import { BodyKindSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { SelectionShape } from "../../src/scenario-kit/select.ts";
import { rateLimitOf, RateLimitParams } from "./fields.ts";

const Params = z.object({
  methods: SelectionShape.methods,
  limit: z.number().int().min(1).max(64).default(2).describe("How many selected requests are admitted (and held `holdMs`) before the limiter answers 429"),
  times: z.number().int().min(1).max(1_000).default(2).describe("How many selected requests after the first `limit` get 429; later ones are admitted again"),
  holdMs: z.number().int().min(0).max(60_000).default(500).describe("How long each admitted request is held before its answer, so that admitted calls stay in flight"),
  seconds: z.number().int().min(0).max(86_400).default(1).describe("Retry-After of each 429, in seconds"),
  body: BodyKindSchema.default("text"),
  ...RateLimitParams,
});

export default defineScenario({
  id: "ratelimit.concurrency",
  title: "429 to a burst of parallel calls",
  summary:
    "A limiter in front of a slow tool. The first `limit` selected requests (tools/call by default) are admitted and held `holdMs` before their answer, so they stay in flight; the next `times` get 429 Too Many Requests with Retry-After `seconds`; later ones are admitted (and held) again. A client that fires more than `limit` calls at once meets 429 while its admitted calls are still running. The count is of arrivals, not of requests in flight: the 429s go to calls number limit+1 to limit+times whenever they come. Plain HTTP (RFC 6585), the same in every MCP version.",
  layer: "transport",
  params: Params,
  judging: {
    checks: ["inflight-not-amplified", "http-retry-after-honoured", "http-retry-bounded", "long-retry-after-not-slept", "non-idempotent-not-replayed"],
    cannotTell: "why a client sent more at once after a 429 (its own retries or new work of the application): inflight-not-amplified counts every request the client had in flight",
  },
  example: { limit: 1, times: 2, holdMs: 1_000, seconds: 5 },
  decide: ({ params, request, counters }) => {
    const method = request.method;
    if (method === undefined || request.kind !== "request") return undefined;
    if (!params.methods.includes(method) && !params.methods.includes("*")) return undefined;
    const n = counters.count("selected");
    if (n > params.limit && n <= params.limit + params.times) {
      return { fault: { kind: "rate_limited", retryAfter: params.seconds, body: params.body, ...rateLimitOf(params, params.seconds) }, reason: `${method} is selected request #${n}, past the limit of ${params.limit} (429 ${n - params.limit} of ${params.times})` };
    }
    const why = n <= params.limit ? `within the limit of ${params.limit}` : `after the ${params.times} answered 429`;
    return { fault: { kind: "delay", ms: params.holdMs }, reason: `${method} is selected request #${n}, admitted ${why} and held ${params.holdMs} ms` };
  },
});
