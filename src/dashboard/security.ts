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
  "referrer-policy": "no-referrer",
  // CSP frame-ancestors supersedes it; kept for browsers that predate CSP 2.
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

/** Sets SECURITY_HEADERS on the response, whatever the handler returned (errors included). */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
};
