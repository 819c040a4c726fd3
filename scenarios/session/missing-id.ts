import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ErrorCode } from "../../src/wire/jsonrpc.ts";

export default defineScenario({
  id: "session.missing_id",
  title: "Session: Mcp-Session-Id stripped",
  summary:
    "Legacy eras: the nth JSON-RPC request on an MCP session (notifications do not count; 1 = the first after initialize) gets HTTP 400 \"Bad Request: Mcp-Session-Id header is required\", as if a proxy had stripped the header the client did send. The session stays valid, so a retry with the same id works (unless persistent). The server already answers 400 to a request that really lacks the id; this scenario adds the case a client cannot see coming. 2026-07-28 has no sessions: nothing happens.",
  layer: "transport",
  params: z.object({
    nth: z.number().int().min(1).max(10_000).default(1).describe("Which request on the session is refused"),
    persistent: z.boolean().default(false).describe("Refuse that request and every later one on the session"),
  }),
  judging: { checks: ["session-id-refusal-handled", "non-idempotent-not-replayed"] },
  example: { nth: 2, persistent: false },
  decide: ({ params, request, counters }) => {
    if (request.era !== "legacy" || request.kind !== "request" || request.method === "initialize" || !request.mcpSessionId) return undefined;
    const n = counters.count(`requests:${request.mcpSessionId}`);
    if (params.persistent ? n < params.nth : n !== params.nth) return undefined;
    return {
      // The same body the endpoint sends when the header really is missing.
      fault: { kind: "jsonrpc_error", code: ErrorCode.InvalidRequest, message: "Bad Request: Mcp-Session-Id header is required", httpStatus: 400 },
      reason: `request ${n} on this session${params.persistent ? ` (from ${params.nth} on)` : ` is the nth (${params.nth})`}`,
    };
  },
});
