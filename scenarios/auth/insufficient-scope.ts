import { z } from "zod";
import { challengeScope } from "../../src/header-safe.ts";
import { defineScenario } from "../../src/scenario.ts";
import { BASE_TOOLS } from "../../src/mcp/base-tools.ts";

const DESTRUCTIVE = BASE_TOOLS.filter((t) => t.annotations.destructiveHint).map((t) => t.name);

export default defineScenario({
  id: "auth.insufficient_scope",
  title: "Auth: 403 insufficient scope",
  summary:
    "tools/call of a destructive tool (place_order), or of the tools listed, gets HTTP 403 with WWW-Authenticate: Bearer error=\"insufficient_scope\", scope, resource_metadata and error_description (2025-11-25 and 2026-07-28 step-up authorization). Everything else succeeds. With denials=N only the first N such calls are refused, as if the client's step-up then worked.",
  layer: "transport",
  params: z.object({
    scope: challengeScope().default("faultline:write").describe("The scope the challenge asks for"),
    tools: z.array(z.string().min(1)).min(1).optional().describe("Tools that need the scope (default: the destructive ones)"),
    denials: z.number().int().min(1).optional().describe("Refuse only the first N calls (default: every call)"),
  }),
  example: { scope: "orders:write", tools: ["place_order"], denials: 1 },
  decide: ({ params, request, counters }) => {
    const targeted = params.tools ?? DESTRUCTIVE;
    if (!request.toolName || !targeted.includes(request.toolName)) return undefined;
    const n = counters.count("scoped-calls");
    if (params.denials !== undefined && n > params.denials) return undefined;
    return { fault: { kind: "insufficient_scope", scope: params.scope }, reason: `call #${n} of ${request.toolName} needs ${params.scope}` };
  },
});
