import { createHash, randomBytes } from "node:crypto";

/** Helpers that run the OAuth flow by hand over fetch, as a client would, for the refusal tests. */

export const REDIRECT = "http://127.0.0.1:9/callback";

export const b64url = (b: Buffer) => b.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function pkce() {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash("sha256").update(verifier).digest()) };
}

export const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** The issuer of a session's MCP URL: {origin}{prefix}/oauth. */
export const issuerOf = (mcpUrl: string) => mcpUrl.replace(/\/mcp$/, "/oauth");

export async function registerClient(issuer: string, redirectUris = [REDIRECT]): Promise<string> {
  const res = await fetch(`${issuer}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: redirectUris, client_name: "test" }) });
  if (res.status !== 201) throw new Error(`register gave ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

export interface AuthorizeOptions {
  clientId: string;
  challenge: string;
  resource?: string | undefined;
  scope?: string;
  redirectUri?: string;
  state?: string;
}

/** GET /authorize without following the redirect; returns the response and, when it redirects, the query of its Location. */
export async function authorizeRequest(issuer: string, o: AuthorizeOptions) {
  const url = new URL(`${issuer}/authorize`);
  const q: Record<string, string | undefined> = {
    response_type: "code", client_id: o.clientId, redirect_uri: o.redirectUri ?? REDIRECT, code_challenge: o.challenge,
    code_challenge_method: "S256", state: o.state ?? "st4te", scope: o.scope, resource: o.resource,
  };
  for (const [k, v] of Object.entries(q)) if (v !== undefined) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  const location = res.headers.get("location");
  return { res, query: location ? new URL(location).searchParams : undefined };
}

/** A code for a fresh client, with the verifier that redeems it. */
export async function codeFor(mcpUrl: string, scope?: string) {
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const { verifier, challenge } = pkce();
  const { query } = await authorizeRequest(issuer, { clientId, challenge, resource: mcpUrl, ...(scope ? { scope } : {}) });
  const code = query?.get("code");
  if (!code) throw new Error(`no code: ${query}`);
  return { issuer, clientId, verifier, code };
}

export async function tokenRequest(issuer: string, fields: Record<string, string>) {
  const res = await fetch(`${issuer}/token`, form(fields));
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** access and refresh tokens for a fresh client. */
export async function tokensFor(mcpUrl: string, scope?: string) {
  const { issuer, clientId, verifier, code } = await codeFor(mcpUrl, scope);
  const { status, body } = await tokenRequest(issuer, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: mcpUrl });
  if (status !== 200) throw new Error(`token gave ${status}: ${JSON.stringify(body)}`);
  return { issuer, clientId, ...(body as { access_token: string; token_type: string; refresh_token: string; scope: string }) };
}

/** The fields of a consent page's Approve form, decoded as a browser would post them. */
export function approveForm(html: string): Record<string, string> {
  const form = html.slice(0, html.indexOf("</form>"));
  const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [decode(m[1]!), decode(m[2]!)]));
}

/** The `name=value` of a response's Set-Cookie, as a browser sends it back in Cookie. */
export const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

/** POSTs a consent form to /authorize as the page would, with `cookie` (or none), without following the redirect. */
export const postConsent = (issuer: string, fields: Record<string, string>, cookie?: string) => {
  const { headers, ...rest } = form(fields);
  return fetch(`${issuer}/authorize`, { ...rest, headers: { ...headers, ...(cookie ? { cookie } : {}) }, redirect: "manual" });
};
