import { z } from "zod";
import type { AccessVars } from "../base/allowlist.ts";
import { jsonResponse } from "../wire/response.ts";
import { clientIdProblem, fetchClientDocument, isUrlClientId, type ServerFacts } from "./client-id.ts";
import { consentPage, consentTokenValid, refusalPage } from "./consent.ts";
import { issuerOf, type Mount, resourceOf } from "./mount.ts";
import { isRegisteredRedirect, isTrustedRedirect } from "./redirect-uri.ts";
import { DEFAULT_SCOPE, type OAuthSettings } from "./settings.ts";
import { type ClientRow, type OAuthStore, secret } from "./store.ts";
import { firstIssue, type OAuthErrorCode } from "./wire.ts";

/** An authorization code is good for this long, and once (OAuth 2.1 §4.1.2). */
export const CODE_SECONDS = 60;

/** The authorization request (OAuth 2.1 §4.1.1, RFC 7636 §4.3, RFC 8707 §2): the fields this server reads. */
const AuthorizeSchema = z.object({
  response_type: z.string().optional(),
  client_id: z.string().min(1).max(2000),
  redirect_uri: z.string().min(1).max(2000),
  state: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  resource: z.string().max(2000).optional(),
});
type AuthorizeRequest = z.infer<typeof AuthorizeSchema>;

export interface AuthorizeContext {
  mount: Mount;
  settings: OAuthSettings;
  store: OAuthStore;
  /** Where the server runs, from its configuration (the loopback exception for client metadata documents). */
  server: ServerFacts;
  vars: AccessVars;
  /** The request's Cookie header: the consent form's CSRF nonce. */
  cookie: string | undefined;
  now: number;
  /** The consent is given only by the page's form, a POST: a crafted GET link cannot skip it. */
  method: string;
}

/** A refusal shown to the user agent: no redirect, since the redirect URI is not (yet) trusted (RFC 6749 §4.1.2.1). */
const shown = (error: OAuthErrorCode, description: string, status = 400) => jsonResponse(status, { error, error_description: description }, { "cache-control": "no-store" });

/** The client a request names: its metadata document (fetched) or its registration; or the refusal. */
async function resolveClient(clientId: string, context: AuthorizeContext): Promise<ClientRow | Response> {
  if (!isUrlClientId(clientId)) return context.store.client(clientId) ?? shown("invalid_client", "client_id is not registered with this session's authorization server");
  const problem = clientIdProblem(clientId, context.server, context.vars);
  if (problem) return shown("invalid_client", problem);
  const client = await fetchClientDocument(clientId);
  if ("problem" in client) return shown("invalid_client", client.problem);
  context.store.saveClient(client, context.now);
  return client;
}

/** The client's redirect URI with `params`, `state` and `iss` (RFC 9207 §2) in the query. */
function backTo(request: AuthorizeRequest, mount: Mount, params: Record<string, string>): URL {
  const target = new URL(request.redirect_uri);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  if (request.state !== undefined) target.searchParams.set("state", request.state);
  target.searchParams.set("iss", issuerOf(mount));
  return target;
}

const redirect = (target: URL) => new Response(null, { status: 302, headers: { location: target.href, "cache-control": "no-store", "referrer-policy": "no-referrer" } });

/**
 * GET (or POST, the consent form) {issuer}/authorize. The client and redirect URI are checked first, and a refusal
 * there is shown, never redirected (RFC 6749 §4.1.2.1). Every later refusal goes back to the client with its error
 * code: by redirect when the redirect URI is on loopback (isTrustedRedirect), as a page with a link otherwise. A
 * request is approved at once when consent is off and the redirect URI is on loopback; otherwise the consent page
 * asks, and only its POST, with the page's CSRF token, approves or denies (`approve` is the form's button).
 */
export async function authorize(fields: Record<string, string>, context: AuthorizeContext): Promise<Response> {
  const parsed = AuthorizeSchema.safeParse(fields);
  if (!parsed.success) return shown("invalid_request", firstIssue(parsed.error));
  const request = parsed.data;
  const client = await resolveClient(request.client_id, context);
  if (client instanceof Response) return client;
  if (!isRegisteredRedirect(client.redirectUris, request.redirect_uri)) return shown("invalid_request", "redirect_uri is not one of the client's registered redirect URIs (exact match; any port only for an http loopback URI)");

  const trusted = isTrustedRedirect(request.redirect_uri);
  const refuse = (error: OAuthErrorCode, description: string) => {
    const target = backTo(request, context.mount, { error, error_description: description });
    return trusted ? redirect(target) : refusalPage(target, error, description);
  };
  if (request.response_type !== "code") return refuse("unsupported_response_type", "response_type must be code");
  if (!request.code_challenge || !/^[A-Za-z0-9._~-]{43,128}$/.test(request.code_challenge)) return refuse("invalid_request", "code_challenge is required (PKCE, OAuth 2.1 §4.1.1): 43 to 128 characters of base64url");
  if (request.code_challenge_method !== "S256") return refuse("invalid_request", "code_challenge_method must be S256");
  const resource = resourceOf(context.mount);
  if (request.resource === undefined) return refuse("invalid_target", `resource is required (RFC 8707): this server's resource is ${resource}`);
  if (request.resource !== resource) return refuse("invalid_target", `resource is not this server's: tokens here are for ${resource}`);
  const scope = request.scope?.split(" ").filter(Boolean) ?? [DEFAULT_SCOPE];
  const unknown = scope.filter((s) => !context.settings.scopes.includes(s));
  if (unknown.length > 0) return refuse("invalid_scope", `unknown scope ${unknown.join(" ")}; this server grants ${context.settings.scopes.join(" ")}`);

  const answered = context.method === "POST" && fields.approve !== undefined;
  if (!answered) {
    if (context.settings.consent || !trusted) {
      return consentPage(fields, client, scope, { store: context.store, cookie: context.cookie, prefix: context.mount.prefix, secure: context.mount.origin.startsWith("https:") });
    }
  } else {
    // The answer counts only from the page this server showed this browser for this very request; it is not the
    // client's error, so it is shown, not sent back.
    if (!consentTokenValid(context.store, context.cookie, fields)) {
      return shown("invalid_request", "the consent form's csrf_token is missing or is not the one this server gave this browser for this request: open the authorization URL again", 403);
    }
    if (fields.approve !== "yes") return redirect(backTo(request, context.mount, { error: "access_denied", error_description: "the user denied the request on the consent page" }));
  }
  const code = secret("flc_");
  context.store.saveCode(code, {
    clientId: client.clientId, redirectUri: request.redirect_uri, challenge: request.code_challenge, scope: scope.join(" "),
    resource, expiresAt: context.now + CODE_SECONDS * 1000, family: secret("", 12),
  });
  return redirect(backTo(request, context.mount, { code }));
}
