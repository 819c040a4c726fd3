import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "session.expire_after",
  title: "Session: expires after N requests",
  summary:
    "Legacy eras: a Mcp-Session-Id is good for `requests` POSTs after initialize (notifications/initialized counts). The next one gets HTTP 404 with a JSON-RPC error and the MCP session ends, so every later request with that id gets 404 too; the client MUST initialize again without the id (2025-11-25 transports), and the new session counts afresh. 2026-07-28 has no sessions: nothing happens.",
  layer: "transport",
  needs: { ownMcpSessions: true },
  params: z.object({
    requests: z.number().int().min(1).max(10_000).default(3).describe("POSTs a session id is good for, after initialize"),
  }),
  judging: { checks: ["session-reinitialized", "non-idempotent-not-replayed"] },
  example: { requests: 2 },
  decide: ({ params, request, counters }) => {
    if (request.era !== "legacy" || request.method === "initialize" || counters.mcpSession <= params.requests) return undefined;
    return { fault: { kind: "session_expired" }, reason: `request ${counters.mcpSession} on this session; it expired after ${params.requests}` };
  },
});
