import { z } from "zod";
import { defineScenario } from "../../src/scenario.ts";
import { bearerToken, ChallengeScopeSchema } from "../../src/scenario-kit/auth.ts";

/**
 * FNV-1a (64-bit) of the token, as hex. It only names a counter, so a fast non-cryptographic hash will do, and
 * decide() must be synchronous (crypto.subtle is not); the raw token is never stored.
 */
function tokenKey(token: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(token)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, "0");
}

export default defineScenario({
  id: "auth.token_expiry",
  title: "Auth: token expiry",
  summary:
    "Each bearer token is good for `uses` requests: request uses+1 and every later one carrying the same token gets HTTP 401 with WWW-Authenticate: Bearer error=\"invalid_token\", resource_metadata=… . A different token starts a fresh count (so refreshing works). Requests without a token get a 401 without an error code. Counts are keyed by a hash of the token, never the token.",
  layer: "transport",
  params: z.object({
    uses: z.number().int().min(1).max(10_000).default(5).describe("Requests each token is good for"),
    scope: ChallengeScopeSchema,
  }),
  example: { uses: 3 },
  decide: ({ params, request, counters }) => {
    const scope = params.scope ? { scope: params.scope } : {};
    const token = bearerToken(request.headers);
    if (!token) return { fault: { kind: "unauthorized", ...scope }, reason: "no Authorization: Bearer token" };
    const n = counters.count(`token:${tokenKey(token)}`);
    if (n <= params.uses) return undefined;
    return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: `request ${n} with this token; it expired after ${params.uses}` };
  },
});
