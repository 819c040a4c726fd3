import { z } from "zod";
import { defineScenario } from "../../src/scenario.ts";
import { BASE_TOOLS } from "../../src/mcp/base-tools.ts";
import type { ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";

const ApprovalSchema = {
  type: "object",
  properties: {
    approved: { type: "boolean", title: "Approve", description: "Let this call go ahead" },
    reason: { type: "string", title: "Reason", description: "Why (optional)" },
  },
  required: ["approved"],
};

/** Wraps a tool so that it runs only after the user approves it through elicitation. */
function withApproval(tool: ToolDefinition, mode: "form" | "url"): ToolDefinition {
  return {
    ...tool,
    asksForInput: true,
    run: async (args, ctx): Promise<ToolResult> => {
      const answer = await ctx.elicit(
        "approval",
        mode === "url"
          ? { mode: "url", message: `Approve ${tool.name} in your browser`, url: `https://faultline.invalid/approve/${tool.name}` }
          : { mode: "form", message: `Approve the call to ${tool.name}?`, requestedSchema: ApprovalSchema },
      );
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
    tools: z.array(z.string().min(1)).min(1).default(["run_configured_test_scenario", "place_order"]).describe("Tools that need approval"),
  }),
  example: { mode: "form", tools: ["place_order"] },
  tools: (params) => BASE_TOOLS.filter((t) => params.tools.includes(t.name)).map((t) => withApproval(t, params.mode)),
});
