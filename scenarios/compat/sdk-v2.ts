import { z } from "zod";
import { TestKitchenCompatShape } from "../../src/scenario-kit/test-kitchen-params.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { decodeHeaderValue } from "../../src/mcp/modern-headers.ts";
import type { ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";
import { refusal } from "../../src/scenario-kit/approval.ts";

function report(text: string, structuredContent: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text }], structuredContent };
}

const showNegotiatedProtocol: ToolDefinition = {
  name: "show_negotiated_mcp_protocol",
  title: "Show negotiated MCP protocol",
  description: "Reports the era (modern = stateless 2026-07-28, legacy = initialize handshake) and the protocol version this call was served with.",
  args: z.object({}),
  annotations: { title: "Show negotiated MCP protocol", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (_args, ctx) =>
    report(`era=${ctx.era} protocolVersion=${ctx.protocolVersion}`, {
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      clientCapabilities: Object.keys(ctx.clientCapabilities).sort(),
    }),
};

const RegionArgsSchema = z.object({
  // 2026-07-28: x-mcp-header makes the client mirror this argument in Mcp-Param-Region, and the endpoint check it.
  region: z.string().min(1).meta({ "x-mcp-header": "Region" }).describe("Order region, e.g. eu-west; sent again in the Mcp-Param-Region header"),
});

const verifyRegionHeader: ToolDefinition = {
  name: "verify_order_region_param_header",
  title: "Verify order region parameter header",
  description:
    "Reports whether the Mcp-Param-Region header matched the region argument. In 2026-07-28 a mismatched or missing header never reaches the tool: the endpoint answers 400 with -32020 first.",
  args: RegionArgsSchema,
  annotations: { title: "Verify order region parameter header", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (args, ctx) => {
    const raw = ctx.headers["mcp-param-region"];
    const header = raw === undefined ? undefined : decodeHeaderValue(raw);
    const matched = header === args.region;
    const expected = ctx.era === "modern";
    const text = matched
      ? `Mcp-Param-Region matched the region argument '${String(args.region)}'.`
      : raw === undefined
        ? `No Mcp-Param-Region header (${expected ? "2026-07-28 requires it" : "not used before 2026-07-28"}); region argument '${String(args.region)}'.`
        : `Mcp-Param-Region '${header ?? raw}' does not match the region argument '${String(args.region)}'.`;
    return report(text, { era: ctx.era, region: args.region, header: header ?? raw ?? null, matched, headerRequired: expected });
  },
};

const ConfirmCloseSchema = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Close the ticket", description: "Close this ticket now" } },
  required: ["confirm"],
};

const simulateTicketClose: ToolDefinition = {
  name: "simulate_ticket_close_mrtr",
  title: "Simulate ticket close (MRTR)",
  description:
    "Asks the user to confirm closing a simulated ticket, then closes it. 2026-07-28: one input_required round trip (inputRequests.confirm); legacy: an elicitation/create on the SSE stream. Accept with confirm=true closes it; decline, cancel or confirm=false give isError. Closing again reports that it was already closed.",
  args: z.object({ ticketId: z.string().min(1).max(64).optional().describe("Ticket to close (default TCK-1001)") }),
  // It changes the simulated ticket's state, which can be reopened, and closing twice changes nothing more.
  annotations: { title: "Simulate ticket close (MRTR)", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  asksForInput: true,
  run: async (args, ctx) => {
    const ticketId = typeof args.ticketId === "string" ? args.ticketId : "TCK-1001";
    const answer = await ctx.elicit("confirm", { mode: "form", message: `Close ticket ${ticketId}?`, requestedSchema: ConfirmCloseSchema });
    if (answer.action !== "accept" || answer.content?.confirm !== true) {
      const action = answer.action === "accept" ? "not confirmed" : answer.action;
      return refusal(`Ticket ${ticketId} was not closed (${action}).`, { ticketId, closed: false, action: answer.action });
    }
    const closes = ctx.count(`ticket-closed:${ticketId}`);
    const text = closes === 1 ? `Ticket ${ticketId} closed.` : `Ticket ${ticketId} was already closed.`;
    return report(text, { ticketId, closed: true, alreadyClosed: closes > 1 });
  },
};

export default defineScenario({
  id: "compat.sdk_v2",
  title: "Compatibility: MCP SDK v2 and Test Kitchen",
  summary:
    "No faults. Adds show_negotiated_mcp_protocol (era and version), verify_order_region_param_header (an x-mcp-header: Region argument; 2026-07-28 checks Mcp-Param-Region against it) and simulate_ticket_close_mrtr (one input_required round trip, or legacy elicitation/create: accept closes the ticket, decline or cancel give isError).",
  layer: "application",
  params: z.object(TestKitchenCompatShape),
  judging: { checks: [], exercisedBy: "control" },
  example: {},
  tools: () => [showNegotiatedProtocol, verifyRegionHeader, simulateTicketClose],
});
