import { z } from "zod";
import { challengeScope } from "../../src/header-safe.ts";
import { defineScenario } from "../../src/scenario.ts";
import { bearerToken, ChallengeScopeSchema } from "../../src/scenario-kit/auth.ts";

export default defineScenario({
  id: "auth.unauthorized",
  title: "Auth: 401 Unauthorized",
  summary:
    "HTTP 401 with WWW-Authenticate: Bearer resource_metadata=\"<origin>/.well-known/oauth-protected-resource\" (and scope when set). when=missing_token (default): only requests without an Authorization: Bearer token are refused, and any bearer token passes (Faultline validates no tokens); the challenge then has no error code (RFC 6750 §3.1). when=always: every request is refused, those with a token with error=\"invalid_token\".",
  layer: "transport",
  params: z.object({
    when: z.enum(["missing_token", "always"]).default("missing_token").describe("Refuse requests without a bearer token, or every request"),
    scope: ChallengeScopeSchema,
  }),
  example: { when: "missing_token", scope: "faultline:read" },
  decide: ({ params, request }) => {
    const token = bearerToken(request.headers);
    if (token && params.when === "missing_token") return undefined;
    const scope = params.scope ? { scope: params.scope } : {};
    if (!token) return { fault: { kind: "unauthorized", ...scope }, reason: "no Authorization: Bearer token" };
    return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: "when=always refuses every token" };
  },
});
