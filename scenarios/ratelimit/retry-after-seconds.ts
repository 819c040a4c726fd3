import { z } from "zod";
import { BodyKindSchema } from "../../src/faults/schema.ts";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";
import { LONG_WAIT_CANNOT_TELL } from "./long-wait.ts";

export default selectiveScenario({
  id: "ratelimit.retry_after_seconds",
  title: "429 with Retry-After seconds",
  summary:
    "The first `times` selected requests (tools/call by default) get 429 Too Many Requests with Retry-After as delta-seconds; later ones succeed. No MCP version mentions 429 or Retry-After: this is plain HTTP (RFC 6585, RFC 9110). The request is not handled.",
  layer: "transport",
  params: {
    times: z.number().int().min(1).default(1).describe("How many selected requests get 429 before they succeed"),
    seconds: z.number().int().min(0).max(86_400).default(1).describe("Retry-After, in seconds"),
    body: BodyKindSchema.default("text"),
  },
  judging: {
    checks: ["http-retry-after-honoured", "http-retry-bounded", "long-retry-after-not-slept", "inflight-not-amplified", "non-idempotent-not-replayed"],
    cannotTell: LONG_WAIT_CANNOT_TELL,
  },
  example: { times: 2, seconds: 5, methods: ["tools/call", "tools/list"] },
  fault: ({ params }) => ({ kind: "rate_limited", retryAfter: params.seconds, body: params.body }),
});
