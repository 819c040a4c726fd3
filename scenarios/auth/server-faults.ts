import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ChallengeScopeSchema } from "../../src/scenario-kit/auth.ts";
import { SERVER_FAULT_PARAMS } from "../../src/oauth/endpoint-faults.ts";
import { OAUTH_PARAMS } from "../../src/oauth/settings.ts";
import { refuseBearer } from "../../src/oauth/refuse.ts";

export default defineScenario({
  id: "auth.server_faults",
  title: "Auth: the authorization server's own faults",
  summary:
    "The MCP side is auth.unauthorized's (401 until the client holds one of the session's tokens); the session's own OAuth 2.1 authorization server (docs/oauth.md) faults one of its endpoints: `endpoint` token, register or metadata (its RFC 8414 document) answers the first `times` requests with `fault` 5xx (`status`), 429 with Retry-After (`retryAfter`), slow (the real answer after `delayMs`), or flap (`status` and the real answer by turns, the first 2×times requests). The client must get through once the faults end, without retrying the endpoint on and on, and after a 429 not before Retry-After. The endpoint's requests are recorded (times and statuses, never a body) for auth-server-retry-bounded.",
  layer: "transport",
  needs: { oauthServer: true },
  params: z
    .object({
      ...SERVER_FAULT_PARAMS,
      scope: ChallengeScopeSchema,
      ...OAUTH_PARAMS,
    })
    .refine((p) => p.authorizationServer === "builtin", { path: ["authorizationServer"], message: "auth.server_faults faults the session's own authorization server, so it needs authorizationServer \"builtin\"" }),
  judging: {
    checks: ["auth-server-retry-bounded", "auth-bounded-attempts"],
    reachedBy: ["auth-server-retry-bounded"],
    cannotTell: "whether the client reached the faulted endpoint: it holds the MCP side only, and auth-server-retry-bounded, read from the authorization server's own records, is absent when the client never did",
  },
  example: { endpoint: "token", fault: "429", times: 2, retryAfter: 1 },
  decide: ({ params, request }) => refuseBearer(request.bearer, params.scope ? { scope: params.scope } : {}),
});
