import { z } from "zod";
import { TestKitchenApprovalShape } from "../../src/scenario-kit/test-kitchen-params.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ApprovalToolsSchema, approvalRequest, askRounds, wrapBaseTools } from "../../src/scenario-kit/approval.ts";
import type { ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";

/** Wraps a tool so that it runs only after the user approves it through elicitation. */
function withApproval(tool: ToolDefinition, mode: "form" | "url"): ToolDefinition {
  return {
    ...tool,
    asksForInput: true,
    run: async (args, ctx): Promise<ToolResult> => {
      const { answer } = await askRounds(ctx, () => approvalRequest(tool.name, mode), 1, () => false);
      if (answer.action !== "accept") {
        return { content: [{ type: "text", text: `The call to ${tool.name} was not approved (${answer.action}).` }], isError: true };
      }
      if (mode === "form" && answer.content?.approved === false) {
        return { content: [{ type: "text", text: `The call to ${tool.name} was refused${answer.content.reason ? `: ${String(answer.content.reason)}` : ""}.` }], isError: true };
      }
      return tool.run(args, ctx);
    },
  };
}

export default defineScenario({
  id: "elicitation.approval",
  title: "Elicitation: approval",
  summary:
    "Calls to the listed tools need the user's approval. 2026-07-28: an input_required result with inputRequests.approval (form mode, or url mode) and an HMAC-signed requestState; legacy: a real elicitation/create on the POST's SSE stream. Accept runs the tool; decline or cancel gives an isError result.",
  layer: "interaction",
  params: z.object({
    mode: z.enum(["form", "url"]).default("form").describe("Elicitation mode"),
    tools: ApprovalToolsSchema,
    ...TestKitchenApprovalShape,
  }),
  judging: { checks: ["elicitation-answered", "mrtr-same-request", "mrtr-new-request-id", "mrtr-request-state-echoed", "mrtr-input-responses-complete", "non-idempotent-not-replayed"], exercisedBy: "answers" },
  example: { mode: "form", tools: ["place_order"] },
  tools: (params) => wrapBaseTools(params.tools, (t) => withApproval(t, params.mode)),
});
