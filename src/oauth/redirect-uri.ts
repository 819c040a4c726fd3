import { z } from "zod";

/**
 * Redirect URIs: which a client may register, which request matches a registered one, and which the server redirects
 * to without asking. One module, so registration (RFC 7591), Client ID Metadata Documents and /authorize agree.
 */

/** The loopback hosts of RFC 8252 §7.3 (and `localhost`, which MCP clients such as mcp-remote use). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Schemes that are not a native app's redirect: a browser runs them as content (javascript:, data:, blob:, …), reads
 * local files (file:, filesystem:), or hands them to another program (mailto:, tel:, …). http and https have their own rules.
 */
const NOT_APP_SCHEMES = new Set(["javascript:", "vbscript:", "data:", "blob:", "file:", "filesystem:", "about:", "view-source:", "ws:", "wss:", "ftp:", "mailto:", "tel:", "sms:"]);

/**
 * Why `uri` cannot be a redirect URI, or undefined. OAuth 2.1 §2.3.1 and RFC 9700 §4.1: an absolute URI without a
 * fragment that is https; http only on a loopback host (RFC 8252 §7.3), since elsewhere the code would travel in the
 * clear; or a native app's private-use scheme (RFC 8252 §7.1, `com.example.app:/cb`), not one of NOT_APP_SCHEMES.
 */
export function redirectUriProblem(uri: string): string | undefined {
  // URL parsing drops surrounding spaces and tabs; what is registered is matched as a string, so none may be there.
  if (/[\s\x00-\x1f\x7f]/.test(uri)) return "must not contain spaces or control characters";
  const url = URL.parse(uri);
  if (!url) return "is not an absolute URI";
  if (uri.includes("#")) return "must not have a fragment (RFC 6749 §3.1.2)";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") return LOOPBACK_HOSTS.has(url.hostname) ? undefined : "is http off loopback: http is accepted only on 127.0.0.1, [::1] or localhost (RFC 8252 §7.3); use https";
  if (NOT_APP_SCHEMES.has(url.protocol)) return `has the scheme ${url.protocol} which is not a redirect scheme: use https, http on loopback, or an app's private-use scheme (RFC 8252 §7.1)`;
  return undefined;
}

/** A redirect URI as registration and client metadata documents declare it; the refusal quotes the URI. */
export const RedirectUriSchema = z
  .string()
  .max(2000)
  .superRefine((uri, ctx) => {
    const problem = redirectUriProblem(uri);
    if (problem) ctx.addIssue({ code: "custom", message: `${JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri)} ${problem}` });
  });

/** `http://<loopback host>:<port>` at the start of a URI, as written (no case folding: matching stays a string match). */
const LOOPBACK_AUTHORITY = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d{1,5})?(?=[/?]|$)/;

const withoutLoopbackPort = (uri: string): string | undefined => {
  const match = LOOPBACK_AUTHORITY.exec(uri);
  return match ? `http://${match[1]}${uri.slice(match[0].length)}` : undefined;
};

/**
 * True when `requested` is one of `registered`, by exact string comparison (RFC 9700 §4.1.3), with the one exception
 * RFC 8252 §7.3 makes: the port of an http loopback redirect URI, which a native client picks when it starts.
 */
export function isRegisteredRedirect(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const free = withoutLoopbackPort(requested);
  return free !== undefined && registered.some((uri) => withoutLoopbackPort(uri) === free);
}

/**
 * True when the server may send the browser to `uri` without asking (RFC 9700 §4.11.2: an authorization server
 * SHOULD only redirect automatically to a URI it trusts): a listener on the user's own machine. Anyone can register a
 * client here, so an https URI elsewhere, or an app scheme (which launches a program with the query), gets a page first.
 */
export function isTrustedRedirect(uri: string): boolean {
  const url = URL.parse(uri);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname);
}
