import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { bearerToken, ChallengeScopeSchema } from "../../src/scenario-kit/auth.ts";
import { OAUTH_PARAMS } from "../../src/oauth/settings.ts";
import { refuseBearer } from "../../src/oauth/refuse.ts";

export default defineScenario({
  id: "auth.unauthorized",
  title: "Auth: 401 Unauthorized",
  summary:
    "HTTP 401 with WWW-Authenticate: Bearer resource_metadata=\"<origin>/.well-known/oauth-protected-resource/s/<id>/mcp\" (and scope when set). With authorizationServer=builtin (default) the session runs a real OAuth 2.1 authorization server (docs/oauth.md) and only its own unexpired tokens for this MCP URL pass; others get error=\"invalid_token\". With authorizationServer=none any bearer token passes. when=missing_token (default): only requests without a valid token are refused. when=always: every request is refused, those with a token with error=\"invalid_token\".",
  layer: "transport",
  needs: { oauthServer: true },
  params: z.object({
    when: z.enum(["missing_token", "always"]).default("missing_token").describe("Refuse requests without a (valid) bearer token, or every request"),
    scope: ChallengeScopeSchema,
    ...OAUTH_PARAMS,
  }),
  judging: { checks: ["auth-bounded-attempts"] },
  example: { when: "missing_token", scope: "faultline:read" },
  decide: ({ params, request }) => {
    const scope = params.scope ? { scope: params.scope } : {};
    if (params.authorizationServer === "builtin") {
      const refused = refuseBearer(request.bearer, scope);
      if (refused || params.when === "missing_token") return refused;
      return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: "when=always refuses every token" };
    }
    const token = bearerToken(request.headers);
    if (token && params.when === "missing_token") return undefined;
    if (!token) return { fault: { kind: "unauthorized", ...scope }, reason: "no Authorization: Bearer token" };
    return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: "when=always refuses every token" };
  },
});
