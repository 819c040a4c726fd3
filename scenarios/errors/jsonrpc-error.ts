import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { injectedErrorMessage } from "../../src/wire/jsonrpc.ts";
import { sameParam } from "../../src/scenario-kit/same-param.ts";

export default defineScenario({
  id: "errors.jsonrpc_error",
  title: "JSON-RPC error",
  summary: "HTTP 200 carrying a JSON-RPC error on the Nth tools/call, whatever the tool.",
  layer: "protocol",
  params: z.object({
    code: z.number().int().default(-32602).describe("JSON-RPC error code"),
    message: z.string().min(1).optional().describe("Default: what the code means, e.g. \"Internal error (injected by Faultline)\" for -32603"),
    data: z.unknown().optional(),
    // The default is applied after the two names are merged (below), and shown in the catalogue by meta.
    nth: z.number().int().min(1).optional().meta({ default: 1 }).describe("Which tools/call fails (1 = the first; default 1)"),
    onInvocation: z.number().int().min(1).optional().describe("MCP Test Kitchen's name for nth"),
  })
    .superRefine(sameParam("nth", "onInvocation"))
    // One name in what is stored and shown, Faultline's, in the order the fields are declared.
    .overwrite(({ onInvocation, code, message, data, nth, ...rest }) => ({ code, message, data, nth: nth ?? onInvocation ?? 1, ...rest })),
  judging: { checks: ["invalid-params-fixed", "non-idempotent-not-replayed"] },
  example: { code: -32602, message: "Invalid params: quantity must be positive", nth: 2 },
  decide: ({ params, request, counters }) => {
    if (request.method !== "tools/call" || counters.method !== params.nth) return undefined;
    return {
      fault: { kind: "jsonrpc_error", code: params.code, message: params.message ?? injectedErrorMessage(params.code), data: params.data, httpStatus: 200 },
      reason: `tools/call #${counters.method} is the nth (${params.nth})`,
    };
  },
});
