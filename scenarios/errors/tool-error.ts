import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { sameParam } from "../../src/scenario-kit/same-param.ts";

const DEFAULT_TEXT = "The tool failed: upstream inventory service is unavailable (injected by Faultline).";

export default defineScenario({
  id: "errors.tool_error",
  title: "Tool error",
  summary: "An isError: true result on the Nth call of run_configured_test_scenario (or of the tools listed in `tools`).",
  layer: "application",
  params: z.object({
    // The default is applied after the two names are merged (below), and shown in the catalogue by meta.
    nth: z.number().int().min(1).optional().meta({ default: 1 }).describe("Which call fails (1 = the first; default 1)"),
    onInvocation: z.number().int().min(1).optional().describe("MCP Test Kitchen's name for nth"),
    text: z.string().min(1).optional().meta({ default: DEFAULT_TEXT }).describe(`The error result's text (default "${DEFAULT_TEXT}")`),
    errorMessage: z.string().min(1).optional().describe("MCP Test Kitchen's name for text"),
    tools: z.array(z.string().min(1)).min(1).default(["run_configured_test_scenario"]).describe("Tools whose calls are counted"),
  })
    .superRefine(sameParam("nth", "onInvocation"))
    .superRefine(sameParam("text", "errorMessage"))
    // One name each in what is stored and shown, Faultline's, in the order the fields are declared.
    .overwrite(({ onInvocation, errorMessage, nth, text, ...rest }) => ({ nth: nth ?? onInvocation ?? 1, text: text ?? errorMessage ?? DEFAULT_TEXT, ...rest })),
  judging: { checks: ["non-idempotent-not-replayed", "tool-error-next-step"], cannotTell: "whether the client showed the tool's error to its user or model (it sees only what the client sent next)" },
  example: { nth: 1, tools: ["place_order"], text: "Payment declined" },
  decide: ({ params, request, counters }) => {
    if (!request.toolName || !params.tools.includes(request.toolName)) return undefined;
    const n = counters.count("targeted-calls");
    if (n !== params.nth) return undefined;
    return { fault: { kind: "tool_error", text: params.text ?? DEFAULT_TEXT }, reason: `call #${n} of ${params.tools.join(", ")} is the nth (${params.nth})` };
  },
});
