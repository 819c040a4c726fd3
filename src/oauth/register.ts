import { z } from "zod";
import { jsonResponse } from "../wire/response.ts";
import { RedirectUriSchema } from "./redirect-uri.ts";
import { type OAuthStore, secret } from "./store.ts";
import { firstIssue, NO_STORE, oauthError } from "./wire.ts";

/** The RFC 7591 §2 client metadata this server reads; the rest is accepted and ignored (§3.2.1 lets it replace values). */
export const RegistrationSchema = z.object({
  redirect_uris: z.array(RedirectUriSchema).min(1).max(20),
  client_name: z.string().max(200).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  scope: z.string().max(1000).optional(),
});

/** POST {issuer}/register (RFC 7591 §3): registers a public client; 201 with its client_id, or 400 invalid_*. */
export function register(body: unknown, store: OAuthStore, now: number): Response {
  const parsed = RegistrationSchema.safeParse(body);
  if (!parsed.success) {
    const redirect = parsed.error.issues[0]?.path[0] === "redirect_uris";
    return oauthError(400, redirect ? "invalid_redirect_uri" : "invalid_client_metadata", firstIssue(parsed.error));
  }
  const { redirect_uris, client_name } = parsed.data;
  const clientId = secret("flcl_", 16);
  store.saveClient({ clientId, redirectUris: redirect_uris, via: "dcr", ...(client_name ? { clientName: client_name } : {}) }, now);
  // §3.2.1: the registered metadata, with the values this server chose (a public client, code and refresh grants).
  return jsonResponse(201, {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    redirect_uris,
    ...(client_name ? { client_name } : {}),
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  }, NO_STORE);
}
