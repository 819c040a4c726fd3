import { equalBytes } from "../base/secret-compare.ts";
import type { ClientRow } from "./records.ts";
import { isTrustedRedirect } from "./redirect-uri.ts";
import { type OAuthStore, secret } from "./store.ts";

/**
 * The consent page and its CSRF defence (OWASP ASVS 5.0 V3.5.1, the cheat sheet's signed double-submit cookie). The
 * page sets a random nonce in a SameSite=Strict, HttpOnly cookie scoped to /authorize, and its form carries
 * HMAC(session key, nonce + the authorization request); the POST is honoured only when the two agree. So the form
 * cannot be posted from another site (the cookie stays behind), nor by a page that fetched its own copy of the form
 * (its token names another nonce), nor with the request's fields changed (the token names the fields).
 */

const COOKIE = "faultline_consent";
/** The browser's nonce lives this long; a form older than that is posted without it and refused. */
const COOKIE_SECONDS = 3600;
const FIELD = "csrf_token";

/** The authorization request's fields that decide what is approved, in a fixed order. */
const BOUND = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method", "resource"] as const;

/** The nonce of the consent cookie in a Cookie header, or undefined. */
function nonceOf(cookie: string | undefined): string | undefined {
  for (const part of (cookie ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === COOKIE && value && /^[A-Za-z0-9_-]{16,100}$/.test(value)) return value;
  }
  return undefined;
}

const tokenFor = (store: OAuthStore, nonce: string, fields: Record<string, string>) =>
  store.keyOf(`consent\n${nonce}\n${JSON.stringify(BOUND.map((k) => fields[k] ?? null))}`);

/** True when a consent POST carries the token the page gave this browser for these very fields. */
export function consentTokenValid(store: OAuthStore, cookie: string | undefined, fields: Record<string, string>): boolean {
  const nonce = nonceOf(cookie);
  const presented = fields[FIELD];
  if (!nonce || !presented) return false;
  const encoder = new TextEncoder();
  return equalBytes(encoder.encode(presented), encoder.encode(tokenFor(store, nonce, fields)));
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// No form-action: browsers apply it to the redirect that follows the POST, which goes to the client.
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** Where a redirect URI sends the browser, as the page names it: the origin, or the scheme of an app. */
function destination(uri: string): string {
  const url = new URL(uri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : `the app that handles ${url.protocol}`;
}

export interface ConsentContext {
  store: OAuthStore;
  cookie: string | undefined;
  /** The issuer's path prefix ("" or "/s/{seg}") and whether the public origin is https (the cookie's Path and Secure). */
  prefix: string;
  secure: boolean;
}

/** The one-click consent page: the request's fields carried in a form that POSTs them back with `approve` and the token. */
export function consentPage(fields: Record<string, string>, client: ClientRow, scope: string[], context: ConsentContext): Response {
  const nonce = nonceOf(context.cookie) ?? secret("", 18);
  const carried = { ...Object.fromEntries(Object.entries(fields).filter(([k]) => k !== "approve" && k !== FIELD)), [FIELD]: tokenFor(context.store, nonce, fields) };
  const hidden = Object.entries(carried).map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join("");
  const name = escape(client.clientName ?? client.clientId);
  const target = escape(destination(fields.redirect_uri!));
  const why = isTrustedRedirect(fields.redirect_uri!) ? "" : `<p>This server approves at once only for clients that listen on this machine (a loopback redirect URI); this one goes elsewhere, so it asks first.</p>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize ${name}</title></head><body>
<h1>Authorize ${name}?</h1><p>It asks for: ${escape(scope.join(" "))}</p><p>Approving sends an authorization code to <strong>${target}</strong>.</p>${why}
<p>Faultline's test authorization server: there is no account; approving issues a code to the client.</p>
<form method="post"><input type="hidden" name="approve" value="yes">${hidden}<button type="submit">Approve</button></form>
<form method="post"><input type="hidden" name="approve" value="no">${hidden}<button type="submit">Deny</button></form></body></html>`;
  const cookie = `${COOKIE}=${nonce}; Path=${context.prefix}/oauth/authorize; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Strict${context.secure ? "; Secure" : ""}`;
  return new Response(html, { status: 200, headers: { ...PAGE_HEADERS, "set-cookie": cookie } });
}

/**
 * A refusal for a redirect URI the server does not redirect to by itself (isTrustedRedirect): the error on a page,
 * with a link back to the client that the user may follow. RFC 9700 §4.11.2: an erroneous request from a client
 * anyone registered must not turn this origin into a redirector to that client's site.
 */
export function refusalPage(target: URL, error: string, description: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization refused</title></head><body>
<h1>Authorization refused</h1><p>${escape(error)}: ${escape(description)}</p>
<p><a href="${escape(target.href)}" rel="noreferrer">Return to ${escape(destination(target.href))}</a></p></body></html>`;
  return new Response(html, { status: 400, headers: PAGE_HEADERS });
}
