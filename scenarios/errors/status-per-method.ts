import { z } from "zod";
import { BodyKindSchema, RetryAfterSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "errors.status_per_method",
  title: "HTTP status per method",
  summary:
    "Every request (or notification) whose JSON-RPC method is a key of `statuses` gets that HTTP status, with Retry-After when retryAfter is set and a body of the chosen kind; other methods are answered normally. The request is not handled.",
  layer: "transport",
  params: z.object({
    statuses: z
      .record(z.string().min(1), z.number().int().min(400).max(599))
      .default({ "tools/call": 503 })
      .describe("JSON-RPC method -> HTTP status"),
    retryAfter: RetryAfterSchema.optional(),
    body: BodyKindSchema.default("empty"),
  }),
  judging: { checks: ["http-retry-after-honoured", "http-retry-backoff", "http-retry-bounded", "session-reinitialized", "non-idempotent-not-replayed"] },
  example: { statuses: { "tools/list": 500, "tools/call": 503 }, retryAfter: 2, body: "text" },
  decide: ({ params, request }) => {
    const status = request.method === undefined ? undefined : params.statuses[request.method];
    if (status === undefined) return undefined;
    const retryAfter = params.retryAfter === undefined ? {} : { retryAfter: params.retryAfter };
    return { fault: { kind: "http_status", status, body: params.body, ...retryAfter }, reason: `${request.method} -> ${status}` };
  },
});
