import type { MiddlewareHandler } from "hono";

/**
 * The dashboard's Content-Security-Policy. Everything it shows comes from untrusted MCP clients, so no inline
 * script or style may run: scripts and styles load from this origin only, and fetch/EventSource stay on it too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** Headers sent with every dashboard response, pages and assets alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the login form's POST (and
  // with the sign-out form's), which the server must refuse, so nobody could sign in. same-origin keeps the full
  // Referer and a real Origin for this server's own requests and sends no Referer at all to any other origin, so a
  // page's URL (a session page, a capability URL in a link) still never leaks to another site.
  "referrer-policy": "same-origin",
  // CSP frame-ancestors supersedes it; kept for browsers that predate CSP 2.
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

/** Sets SECURITY_HEADERS on the response, whatever the handler returned (errors included). */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
};
