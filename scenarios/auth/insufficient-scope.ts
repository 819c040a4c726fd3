import { z } from "zod";
import { challengeScope } from "../../src/base/header-safe.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { BASE_TOOLS } from "../../src/mcp/base-tools.ts";
import { DEFAULT_SCOPE, OAUTH_PARAMS } from "../../src/oauth/settings.ts";
import { refuseBearer } from "../../src/oauth/refuse.ts";

const DESTRUCTIVE = BASE_TOOLS.filter((t) => t.annotations.destructiveHint).map((t) => t.name);

export default defineScenario({
  id: "auth.insufficient_scope",
  title: "Auth: 403 insufficient scope",
  summary:
    "tools/call of a destructive tool (place_order), or of the tools listed, gets HTTP 403 with WWW-Authenticate: Bearer error=\"insufficient_scope\", scope, resource_metadata and error_description (2025-11-25 and 2026-07-28 step-up authorization). Everything else succeeds. With authorizationServer=builtin (default) the session runs a real OAuth 2.1 authorization server (docs/oauth.md): requests need one of its tokens (401 otherwise, naming faultline:read), and a call passes once the token carries the scope, so the client must step up; the challenge names every scope the call needs, the token's and the new one. With none, any token passes and denials=N refuses only the first N such calls, as if the client's step-up then worked.",
  layer: "transport",
  needs: { oauthServer: true },
  params: z.object({
    scope: challengeScope().default("faultline:write").describe("The scope the challenge asks for"),
    tools: z.array(z.string().min(1)).min(1).optional().describe("Tools that need the scope (default: the destructive ones)"),
    denials: z.number().int().min(1).optional().describe("authorizationServer=none: refuse only the first N calls (default: every call)"),
    ...OAUTH_PARAMS,
  }),
  judging: { checks: ["auth-step-up-scope", "auth-bounded-attempts"] },
  example: { scope: "orders:write", tools: ["place_order"], denials: 1, authorizationServer: "none" },
  decide: ({ params, request, counters }) => {
    const builtin = params.authorizationServer === "builtin";
    if (builtin) {
      const refused = refuseBearer(request.bearer, { scope: DEFAULT_SCOPE });
      if (refused) return refused;
    }
    const targeted = params.tools ?? DESTRUCTIVE;
    if (!request.toolName || !targeted.includes(request.toolName)) return undefined;
    if (builtin) {
      const held = request.bearer?.scopes ?? [];
      const needed = params.scope.split(" ");
      if (needed.every((s) => held.includes(s))) return undefined;
      // One challenge with every scope the call needs (2025-11-25 §Scope challenge): what the token has and what it lacks.
      const scope = [...new Set([...held, ...needed])].join(" ");
      return { fault: { kind: "insufficient_scope", scope }, reason: `${request.toolName} needs ${params.scope}; the token has ${held.join(" ") || "no scope"}` };
    }
    const n = counters.count("scoped-calls");
    if (params.denials !== undefined && n > params.denials) return undefined;
    return { fault: { kind: "insufficient_scope", scope: params.scope }, reason: `call #${n} of ${request.toolName} needs ${params.scope}` };
  },
});
