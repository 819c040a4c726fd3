import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ChallengeScopeSchema } from "../../src/scenario-kit/auth.ts";
import { OAUTH_PARAMS } from "../../src/oauth/settings.ts";
import { refuseBearer } from "../../src/oauth/refuse.ts";

export default defineScenario({
  id: "auth.token_expiry",
  title: "Auth: token expiry",
  summary:
    "Each bearer token is good for `uses` requests: request uses+1 and every later one carrying the same token gets HTTP 401 with WWW-Authenticate: Bearer error=\"invalid_token\", resource_metadata=… . A different token starts a fresh count, so a client that refreshes goes on. With refreshRevoked, every refresh is refused with invalid_grant (the grant withdrawn), so the client must run the whole authorization again rather than loop on refreshing. With authorizationServer=builtin (default) tokens come from the session's own OAuth server (docs/oauth.md), which also refuses tokens it did not issue; with none, any token counts. Requests without a token get a 401 without an error code. Counts are keyed by an HMAC of the token under a per-session random key, never the token.",
  layer: "transport",
  needs: { oauthServer: true },
  params: z.object({
    uses: z.number().int().min(1).max(10_000).default(5).describe("Requests each token is good for"),
    scope: ChallengeScopeSchema,
    refreshRevoked: z.boolean().default(false).describe("builtin: every refresh is refused with invalid_grant and its grant revoked, so the client must authorize again"),
    ...OAUTH_PARAMS,
  }),
  judging: { checks: ["auth-refreshed-on-expiry", "auth-one-refresh-per-token", "auth-reauthorized-after-revoke", "auth-bounded-attempts"] },
  example: { uses: 3 },
  decide: ({ params, request, counters }) => {
    const scope = params.scope ? { scope: params.scope } : {};
    const bearer = request.bearer;
    if (params.authorizationServer === "builtin") {
      const refused = refuseBearer(bearer, scope);
      if (refused) return refused;
    }
    if (!bearer) return { fault: { kind: "unauthorized", ...scope }, reason: "no Authorization: Bearer token" };
    const n = counters.count(`token:${bearer.key}`);
    if (n <= params.uses) return undefined;
    return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: `request ${n} with this token; it expired after ${params.uses}` };
  },
});
