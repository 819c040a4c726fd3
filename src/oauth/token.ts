import { z } from "zod";
import { jsonResponse } from "../wire/response.ts";
import { type Mount, resourceOf } from "./mount.ts";
import type { OAuthSettings } from "./settings.ts";
import { type OAuthStore, secret } from "./store.ts";
import { firstIssue, NO_STORE, oauthError, s256 } from "./wire.ts";

/** How long an access token lives unless a scenario expires it sooner. */
export const ACCESS_TOKEN_SECONDS = 3600;

const Field = z.string().min(1).max(2000);
/** RFC 7636 §4.1: code_verifier = 43*128unreserved, unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~". */
const CodeVerifier = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, "must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)");
const CodeGrantSchema = z.object({ grant_type: z.literal("authorization_code"), code: Field, redirect_uri: Field, client_id: Field, code_verifier: CodeVerifier, resource: Field.optional() });
const RefreshGrantSchema = z.object({ grant_type: z.literal("refresh_token"), refresh_token: Field, client_id: Field, resource: Field.optional(), scope: z.string().max(1000).optional() });

export interface TokenContext {
  mount: Mount;
  settings: OAuthSettings;
  store: OAuthStore;
  now: number;
}

type Outcome = { response: Response; grantType: string; scope: string; outcome: string };

/** The HMAC of the refresh token a refresh_token request presented (any value, known or not), for the grant event. */
function presentedKey(fields: Record<string, string>, store: OAuthStore): { presented?: string } {
  const value = fields.grant_type === "refresh_token" ? fields.refresh_token : undefined;
  return value ? { presented: store.keyOf(value) } : {};
}

/** POST {issuer}/token (OAuth 2.1 §3.2): the authorization_code and refresh_token grants, each refusal with its RFC code. */
export async function token(fields: Record<string, string>, context: TokenContext): Promise<Response> {
  const result = await grant(fields, context);
  context.store.recordEvent({ at: context.now, grantType: result.grantType, scope: result.scope, outcome: result.outcome, ...presentedKey(fields, context.store) });
  return result.response;
}

async function grant(fields: Record<string, string>, context: TokenContext): Promise<Outcome> {
  const grantType = fields.grant_type ?? "";
  const refused = (status: number, error: Parameters<typeof oauthError>[1], description: string, scope = ""): Outcome => ({ response: oauthError(status, error, description), grantType, scope, outcome: error });
  if (grantType === "authorization_code") {
    const parsed = CodeGrantSchema.safeParse(fields);
    if (!parsed.success) return refused(400, "invalid_request", firstIssue(parsed.error));
    const request = parsed.data;
    const code = context.store.takeCode(request.code);
    if (!code) return refused(400, "invalid_grant", "the code is unknown to this session's authorization server");
    if (code.used) {
      // OAuth 2.1 §4.1.3: a code used twice may have leaked; what it granted is revoked.
      context.store.revokeFamily(code.family);
      return refused(400, "invalid_grant", "the code was used already; the tokens it granted are revoked", code.scope);
    }
    if (code.expiresAt <= context.now) return refused(400, "invalid_grant", "the code has expired", code.scope);
    if (code.clientId !== request.client_id) return refused(400, "invalid_grant", "the code was issued to another client", code.scope);
    if (code.redirectUri !== request.redirect_uri) return refused(400, "invalid_grant", "redirect_uri does not match the one of the authorization request", code.scope);
    if ((await s256(request.code_verifier)) !== code.challenge) return refused(400, "invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)", code.scope);
    const target = resourceProblem(request.resource, context.mount);
    if (target) return refused(400, "invalid_target", target, code.scope);
    return { response: issue(context, request.client_id, code.scope, code.family), grantType, scope: code.scope, outcome: "issued" };
  }
  if (grantType === "refresh_token") {
    const parsed = RefreshGrantSchema.safeParse(fields);
    if (!parsed.success) return refused(400, "invalid_request", firstIssue(parsed.error));
    const request = parsed.data;
    const row = context.store.token(request.refresh_token);
    if (!row || row.kind !== "refresh") return refused(400, "invalid_grant", "the refresh token is unknown to this session's authorization server");
    if (row.revoked) return refused(400, "invalid_grant", "the refresh token was revoked", row.scope);
    if (row.expiresAt <= context.now) return refused(400, "invalid_grant", "the refresh token has expired", row.scope);
    if (row.clientId !== request.client_id) return refused(400, "invalid_grant", "the refresh token was issued to another client", row.scope);
    const target = resourceProblem(request.resource, context.mount);
    if (target) return refused(400, "invalid_target", target, row.scope);
    if (context.settings.refreshRevoked) {
      // The grant was withdrawn (a user revoking the app, a password change): RFC 6749 §5.2 invalid_grant, and only a
      // whole new authorization gets tokens again.
      context.store.revokeFamily(row.family);
      return refused(400, "invalid_grant", "the refresh token was revoked (refreshRevoked: the grant was withdrawn); authorize again", row.scope);
    }
    if (!context.store.useRefresh(request.refresh_token)) {
      // OAuth 2.1 §4.3.1: refresh tokens rotate, so a second use of one means it leaked; its whole grant is revoked.
      context.store.revokeFamily(row.family);
      return refused(400, "invalid_grant", "the refresh token was used already (they rotate); every token of its grant is revoked", row.scope);
    }
    const granted = row.scope.split(" ");
    const asked = request.scope?.split(" ").filter(Boolean) ?? granted;
    const extra = asked.filter((s) => !granted.includes(s));
    // RFC 6749 §6: a refresh may narrow the scope, never widen it: more scope needs a new authorization.
    if (extra.length > 0) return refused(400, "invalid_scope", `a refresh cannot add scope (${extra.join(" ")}); authorize again to get it`, row.scope);
    return { response: issue(context, row.clientId, asked.join(" "), row.family), grantType, scope: asked.join(" "), outcome: "issued" };
  }
  return refused(400, grantType ? "unsupported_grant_type" : "invalid_request", grantType ? `grant_type ${grantType} is not supported: use authorization_code or refresh_token` : "grant_type is required");
}

/** RFC 8707 §2: the token request names the resource, and it must be this session's MCP URL. */
function resourceProblem(resource: string | undefined, mount: Mount): string | undefined {
  const own = resourceOf(mount);
  if (resource === undefined) return `resource is required (RFC 8707): this server's resource is ${own}`;
  return resource === own ? undefined : `resource is not this server's: tokens here are for ${own}`;
}

/** A new access token and a new refresh token of one grant, bound to the resource. */
function issue(context: TokenContext, clientId: string, scope: string, family: string): Response {
  const { store, now, mount, settings } = context;
  store.prune(now);
  store.markClientUsed(clientId, now);
  const accessToken = secret("fla_");
  const refreshToken = secret("flr_");
  const resource = resourceOf(mount);
  store.saveToken(accessToken, { kind: "access", clientId, scope, resource, expiresAt: now + ACCESS_TOKEN_SECONDS * 1000, family });
  store.saveToken(refreshToken, { kind: "refresh", clientId, scope, resource, expiresAt: now + settings.refreshTokenSeconds * 1000, family });
  return jsonResponse(200, { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, scope }, NO_STORE);
}
