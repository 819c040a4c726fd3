import { z } from "zod";
import { RetryAfterSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "errors.http_status_sequence",
  title: "HTTP status sequence",
  summary:
    "POST n gets statusCodes[min(n-1, len-1)], so the last code repeats. Non-2xx answers have an empty body by default and carry Retry-After when retryAfter is set.",
  layer: "transport",
  params: z.object({
    statusCodes: z.array(z.number().int().min(200).max(599)).min(1).max(100).default([503, 200]).describe("Status of POST 1, 2, ...; the last repeats"),
    countMethods: z.array(z.string().min(1)).optional().describe("Count (and fault) only POSTs of these JSON-RPC methods"),
    retryAfter: RetryAfterSchema.optional().describe("Retry-After on non-2xx answers: seconds or an HTTP-date"),
    body: z.enum(["empty", "text", "html", "json", "jsonrpc"]).default("empty").describe("Body of non-2xx answers"),
  }),
  judging: { checks: ["http-retry-after-honoured", "http-retry-backoff", "http-retry-bounded", "non-idempotent-not-replayed"] },
  example: { statusCodes: [503, 503, 200], retryAfter: 1, countMethods: ["tools/call"] },
  decide: ({ params, request, counters }) => {
    if (params.countMethods && !(request.method && params.countMethods.includes(request.method))) return undefined;
    const n = params.countMethods ? counters.count("counted-posts") : counters.posts;
    const status = params.statusCodes[Math.min(n - 1, params.statusCodes.length - 1)] ?? 200;
    if (status < 400) return undefined;
    return {
      fault: { kind: "http_status", status, body: params.body, ...(params.retryAfter !== undefined ? { retryAfter: params.retryAfter } : {}) },
      reason: `POST ${n} -> statusCodes[${Math.min(n - 1, params.statusCodes.length - 1)}] = ${status}`,
    };
  },
});
