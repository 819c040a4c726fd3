import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "errors.tool_error",
  title: "Tool error",
  summary: "An isError: true result on the Nth call of run_configured_test_scenario (or of the tools listed in `tools`).",
  layer: "application",
  params: z.object({
    nth: z.number().int().min(1).default(1).describe("Which call fails (1 = the first)"),
    text: z.string().min(1).default("The tool failed: upstream inventory service is unavailable (injected by Faultline)."),
    tools: z.array(z.string().min(1)).min(1).default(["run_configured_test_scenario"]).describe("Tools whose calls are counted"),
  }),
  example: { nth: 1, tools: ["place_order"], text: "Payment declined" },
  decide: ({ params, request, counters }) => {
    if (!request.toolName || !params.tools.includes(request.toolName)) return undefined;
    const n = counters.count("targeted-calls");
    if (n !== params.nth) return undefined;
    return { fault: { kind: "tool_error", text: params.text }, reason: `call #${n} of ${params.tools.join(", ")} is the nth (${params.nth})` };
  },
});
