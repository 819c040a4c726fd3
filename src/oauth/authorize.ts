import { z } from "zod";
import type { AccessVars } from "../base/allowlist.ts";
import { jsonResponse } from "../wire/response.ts";
import { clientIdProblem, fetchClientDocument, isUrlClientId } from "./client-id.ts";
import { issuerOf, type Mount, resourceOf } from "./mount.ts";
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
  /** The URL the request came to (which host the server runs on decides the loopback exception). */
  url: URL;
  vars: AccessVars;
  now: number;
  /** The consent is given only by the page's form, a POST: a crafted GET link cannot skip it. */
  method: string;
  fetcher?: typeof fetch;
}

/** A refusal shown to the user agent: no redirect, since the redirect URI is not (yet) trusted (RFC 6749 §4.1.2.1). */
const shown = (error: OAuthErrorCode, description: string) => jsonResponse(400, { error, error_description: description }, { "cache-control": "no-store" });

/** The client a request names: its metadata document (fetched) or its registration; or the refusal. */
async function resolveClient(clientId: string, context: AuthorizeContext): Promise<ClientRow | Response> {
  if (!isUrlClientId(clientId)) return context.store.client(clientId) ?? shown("invalid_client", "client_id is not registered with this session's authorization server");
  const problem = clientIdProblem(clientId, context.url, context.vars);
  if (problem) return shown("invalid_client", problem);
  const client = await fetchClientDocument(clientId, context.fetcher);
  if ("problem" in client) return shown("invalid_client", client.problem);
  context.store.saveClient(client, context.now);
  return client;
}

/** The redirect back to the client with `params`, `state` and `iss` (RFC 9207 §2) in the query. */
function redirectBack(request: AuthorizeRequest, mount: Mount, params: Record<string, string>): Response {
  const target = new URL(request.redirect_uri);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  if (request.state !== undefined) target.searchParams.set("state", request.state);
  target.searchParams.set("iss", issuerOf(mount));
  return new Response(null, { status: 302, headers: { location: target.href, "cache-control": "no-store" } });
}

/**
 * GET (or POST, the consent form) {issuer}/authorize. The client and redirect URI are checked first, and a refusal
 * there is shown, never redirected; every later refusal goes back to the client with its error code. Approves at
 * once, or after the consent page when the scenario asks for one (`approve` is the consent form's button).
 */
export async function authorize(fields: Record<string, string>, context: AuthorizeContext): Promise<Response> {
  const parsed = AuthorizeSchema.safeParse(fields);
  if (!parsed.success) return shown("invalid_request", firstIssue(parsed.error));
  const request = parsed.data;
  const client = await resolveClient(request.client_id, context);
  if (client instanceof Response) return client;
  if (!client.redirectUris.includes(request.redirect_uri)) return shown("invalid_request", "redirect_uri is not one of the client's registered redirect URIs (exact match)");

  const refuse = (error: OAuthErrorCode, description: string) => redirectBack(request, context.mount, { error, error_description: description });
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
  if (context.settings.consent && !answered) return consentPage(fields, client, scope);
  if (answered && fields.approve !== "yes") return refuse("access_denied", "the user denied the request on the consent page");
  const code = secret("flc_");
  context.store.saveCode(code, {
    clientId: client.clientId, redirectUri: request.redirect_uri, challenge: request.code_challenge, scope: scope.join(" "),
    resource, expiresAt: context.now + CODE_SECONDS * 1000, family: secret("", 12),
  });
  return redirectBack(request, context.mount, { code });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The one-click consent page: the request's fields carried in a form that POSTs them back with `approve`. */
function consentPage(fields: Record<string, string>, client: ClientRow, scope: string[]): Response {
  const hidden = Object.entries(fields)
    .filter(([k]) => k !== "approve")
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join("");
  const name = escape(client.clientName ?? client.clientId);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize ${name}</title></head><body>
<h1>Authorize ${name}?</h1><p>It asks for: ${escape(scope.join(" "))}</p><p>Faultline's test authorization server: there is no account; approving issues a code to the client.</p>
<form method="post"><input type="hidden" name="approve" value="yes">${hidden}<button type="submit">Approve</button></form>
<form method="post"><input type="hidden" name="approve" value="no">${hidden}<button type="submit">Deny</button></form></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
    },
  });
}
