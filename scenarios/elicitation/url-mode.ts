import { z } from "zod";
import { TestKitchenUrlModeShape } from "../../src/scenario-kit/test-kitchen-params.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { capabilityRefusal } from "../../src/mcp/capability-refusal.ts";
import type { ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";
import { ApprovalToolsSchema, approvalRequest, askRounds, refusal, wrapBaseTools } from "../../src/scenario-kit/approval.ts";

/** Wraps a tool so that it runs only after a URL-mode elicitation, which needs the client's elicitation.url capability. */
function withUrlApproval(tool: ToolDefinition, pendingRounds: number): ToolDefinition {
  return {
    ...tool,
    asksForInput: true,
    run: async (args, ctx): Promise<ToolResult> => {
      const elicitation = ctx.clientCapabilities.elicitation as Record<string, unknown> | undefined;
      // The server MUST NOT send URL mode without elicitation.url: refused, naming it, the same way in both eras.
      if (!elicitation?.url) throw capabilityRefusal(ctx.era, `${tool.name} needs URL-mode elicitation (elicitation.url)`, { elicitation: { url: {} } });
      let elicitationId = "";
      const { answer, round } = await askRounds(
        ctx,
        (n) => {
          // Legacy (2025-11-25) URL mode carries an elicitationId; the 2026-07-28 input request drops it.
          elicitationId = `${tool.name}-${n}-${crypto.randomUUID()}`;
          return { ...approvalRequest(tool.name, "url", n === 1 ? "" : ` (not completed yet: open it again, round ${n})`), elicitationId };
        },
        pendingRounds + 1,
        (a) => a.action === "accept",
      );
      if (answer.action !== "accept") return refusal(`The URL approval for ${tool.name} was not given (${answer.action}); nothing was done.`, { tool: tool.name, action: answer.action, rounds: round });
      // 2025-11-25: the server MAY tell the client that the out-of-band step finished.
      if (ctx.era === "legacy") ctx.notify("notifications/elicitation/complete", { elicitationId });
      return tool.run(args, ctx);
    },
  };
}

export default defineScenario({
  id: "elicitation.url_mode",
  title: "Elicitation: URL mode",
  summary:
    "Calls to the listed tools need an out-of-band approval at a URL. 2026-07-28: an input_required result whose inputRequests.approval is elicitation/create {mode: \"url\", message, url} without elicitationId; a client that did not declare elicitation.url gets -32021 (HTTP 400). Legacy (2025-11-25): elicitation/create with mode url and an elicitationId on the POST's SSE stream, then notifications/elicitation/complete after accept; without elicitation.url the JSON-RPC error -32600 naming elicitation.url. With pendingRounds=N an accept is answered N times with another URL request (the out-of-band step \"is not done yet\").",
  layer: "interaction",
  params: z.object({
    tools: ApprovalToolsSchema,
    pendingRounds: z.number().int().min(0).max(10).default(0).describe("Ask again this many times after an accept, as if the out-of-band step were unfinished"),
    ...TestKitchenUrlModeShape,
  }),
  judging: { checks: ["elicitation-answered", "mrtr-same-request", "mrtr-new-request-id", "mrtr-request-state-echoed", "mrtr-input-responses-complete", "non-idempotent-not-replayed"], exercisedBy: "answers", needsOutside: "it asks the client's user to open a URL and approve out of band (in a browser), a step an unattended run has nobody for" },
  example: { tools: ["place_order"], pendingRounds: 1 },
  tools: (params) => wrapBaseTools(params.tools, (t) => withUrlApproval(t, params.pendingRounds)),
});
