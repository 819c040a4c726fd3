import { z } from "zod";
import { SessionExpiredVariantSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "session.expire_after",
  title: "Session: expires after N requests",
  summary:
    "Legacy eras: a Mcp-Session-Id is good for `requests` POSTs after initialize (notifications/initialized counts). The next one gets the `variant`'s answer (by default HTTP 404 with a JSON-RPC error) and the MCP session ends, so every later request with that id gets the same answer, as does one on a session ended by DELETE or by POST /api/sessions/{id}/expire-mcp-sessions; the client MUST initialize again without the id (2025-11-25 transports), and the new session counts afresh. 2026-07-28 has no sessions: nothing happens, whatever the variant.",
  layer: "transport",
  needs: { ownMcpSessions: true },
  params: z.object({
    requests: z.number().int().min(1).max(10_000).default(3).describe("POSTs a session id is good for, after initialize"),
    variant: SessionExpiredVariantSchema.default("not_found"),
  }),
  judging: { checks: ["session-reinitialized", "non-idempotent-not-replayed"] },
  example: { requests: 2, variant: "bad_request_no_valid_session" },
  decide: ({ params, request, counters }) => {
    if (request.era !== "legacy" || request.method === "initialize") return undefined;
    const fault = { kind: "session_expired" as const, variant: params.variant };
    if (request.mcpSessionEnded) return { fault, reason: "this MCP session has ended" };
    if (counters.mcpSession <= params.requests) return undefined;
    return { fault, reason: `request ${counters.mcpSession} on this session; it expired after ${params.requests}` };
  },
});
