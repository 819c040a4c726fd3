import { z } from "zod";
import { TestKitchenDeclineShape } from "../../src/scenario-kit/test-kitchen-params.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import type { ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";
import { ApprovalToolsSchema, approvalRequest, askRounds, refusal, wrapBaseTools } from "../../src/scenario-kit/approval.ts";

/** Wraps a tool so that it needs approval and tells a decline, a cancel and a refusal apart. */
function withDeclineHandling(tool: ToolDefinition, repeat: number): ToolDefinition {
  return {
    ...tool,
    asksForInput: true,
    run: async (args, ctx): Promise<ToolResult> => {
      const { answer, round } = await askRounds(
        ctx,
        (n) => approvalRequest(tool.name, "form", n === 1 ? "" : ` (asking again: declined ${n - 1} time${n === 2 ? "" : "s"})`),
        repeat + 1,
        (a) => a.action === "decline",
      );
      const details = { tool: tool.name, action: answer.action, rounds: round };
      switch (answer.action) {
        case "decline":
          return refusal(`Declined: the user said no to ${tool.name} (asked ${round} time${round === 1 ? "" : "s"}); nothing was done.`, details);
        case "cancel":
          return refusal(`Cancelled: the user dismissed the approval for ${tool.name} without choosing; nothing was done.`, details);
        case "accept":
          if (answer.content?.approved !== false) return tool.run(args, ctx);
          return refusal(`Refused: the user answered the form but did not approve ${tool.name}; nothing was done.`, { ...details, approved: false });
      }
    },
  };
}

export default defineScenario({
  id: "elicitation.decline",
  title: "Elicitation: decline and cancel",
  summary:
    "Like elicitation.approval (form mode), but the result tells the three refusals apart: decline (\"Declined: ...\"), cancel (\"Cancelled: ...\") and accept with approved=false (\"Refused: ...\"), each isError with structuredContent {action, rounds}. With repeat=N a decline is answered by asking again (a new input_required with key approval-2, approval-3, ...; legacy: another elicitation/create on the same stream) up to N more times, to test a client's loop handling.",
  layer: "interaction",
  params: z.object({
    tools: ApprovalToolsSchema,
    repeat: z.number().int().min(0).max(20).default(0).describe("After a decline, ask again up to this many times"),
    ...TestKitchenDeclineShape,
  }),
  judging: { checks: ["elicitation-answered", "mrtr-same-request", "mrtr-new-request-id", "mrtr-request-state-echoed", "mrtr-input-responses-complete", "non-idempotent-not-replayed"], exercisedBy: "answers" },
  example: { tools: ["place_order"], repeat: 2 },
  tools: (params) => wrapBaseTools(params.tools, (t) => withDeclineHandling(t, params.repeat)),
});
