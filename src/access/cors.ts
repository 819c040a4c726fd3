import type { MiddlewareHandler } from "hono";
import { routedPath } from "./canonical-path.ts";
import { originAllowed, type OriginVars } from "./own-origin.ts";
import { isMcpPath } from "./paths.ts";

/** The request headers an MCP client sends (transports, 2025-06-18 to 2026-07-28), lower-cased. */
const MCP_REQUEST_HEADERS = new Set([
  "content-type",
  "accept",
  "authorization",
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "last-event-id",
]);

/** 2026-07-28 carries chosen params in `Mcp-Param-{Name}` headers; a header name is an RFC 9110 token. */
const MCP_PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** What a browser script may read from an MCP answer: the session, the version, retry hints and the auth challenge. */
const EXPOSED_HEADERS = "Mcp-Session-Id, MCP-Protocol-Version, Retry-After, retry-after-ms, WWW-Authenticate";

const ALLOWED_METHODS = "GET, POST, DELETE";

/** How long a browser may cache a preflight, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

/** The requested headers that an MCP client may send, in request order; the rest are left out, so the browser refuses them. */
export function allowedRequestHeaders(requested: string | null): string[] {
  if (!requested) return [];
  const names = requested.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  return [...new Set(names)].filter((name) => MCP_REQUEST_HEADERS.has(name) || MCP_PARAM_HEADER.test(name));
}

/**
 * CORS on the MCP endpoints, for the origins the allowlist admits (a foreign Origin was refused already by the
 * Host and Origin guard). The preflight is answered here, before any session is touched; every other answer gets
 * the CORS headers after the session has answered, faults included (401, 429, 503, cut streams: the headers leave
 * before the body, so a cut stream carries them too), or a browser would report a network error instead of the
 * fault. Credentials are not allowed: MCP authenticates with the Authorization header, never with cookies.
 * The management API gets no CORS headers: it stays same-origin.
 */
export const mcpCors: MiddlewareHandler<{ Bindings: OriginVars }> = async (c, next) => {
  const request = c.req.raw;
  const origin = request.headers.get("origin");
  if (origin === null || !isMcpPath(routedPath(c)) || !originAllowed(origin, request, c.env ?? {})) return next();
  const preflightMethod = request.headers.get("access-control-request-method");
  if (request.method === "OPTIONS" && preflightMethod !== null) {
    const headers = new Headers({
      "access-control-allow-origin": origin,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-max-age": PREFLIGHT_MAX_AGE,
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    });
    const allowed = allowedRequestHeaders(request.headers.get("access-control-request-headers"));
    if (allowed.length > 0) headers.set("access-control-allow-headers", allowed.join(", "));
    return new Response(null, { status: 204, headers });
  }
  await next();
  // A Durable Object's answer has immutable headers: copy it (the body stream is passed on, not read).
  const res = new Response(c.res.body, c.res);
  res.headers.set("access-control-allow-origin", origin);
  res.headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  res.headers.append("vary", "Origin");
  c.res = res;
};
