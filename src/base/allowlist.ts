/**
 * Which Host names and which browser Origins this server answers. One allowlist feeds the DNS-rebinding guard
 * (src/access/host-origin.ts) and CORS on the MCP endpoints (src/access/cors.ts), so the two cannot disagree.
 *
 * - Hosts: loopback names, *.workers.dev, and the comma-separated `ALLOWED_HOSTS` ("*" allows any name).
 * - Origins: any loopback origin (any scheme and port), the server's own origin, and the comma-separated
 *   `ALLOWED_ORIGINS` (exact origins such as `https://inspector.example.com`).
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK.has(host) || host.endsWith(".localhost");
}

/** The access variables this module reads; absent in the in-process tests, so every one is optional. */
export interface AccessVars {
  ALLOWED_HOSTS?: string;
  ALLOWED_ORIGINS?: string;
}

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
}

/** Why the request's Host is refused, or undefined when it is allowed. */
export function refusedHost(url: URL, vars: AccessVars): string | undefined {
  const host = url.hostname.toLowerCase();
  const allowed = list(vars.ALLOWED_HOSTS);
  if (isLoopback(host) || host.endsWith(".workers.dev") || allowed.includes(host) || allowed.includes("*")) return undefined;
  return `Host '${url.host}' is not allowed (set ALLOWED_HOSTS to serve other names)`;
}

/** True when `origin` (an Origin header's value) may talk to the server at `url`. */
export function isAllowedOrigin(origin: string, url: URL, vars: AccessVars): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === "null") return false;
  if (parsed.origin === url.origin || isLoopback(parsed.hostname)) return true;
  return list(vars.ALLOWED_ORIGINS).some((allowed) => allowed.replace(/\/$/, "") === parsed.origin);
}

/** Why the request's Origin header is refused, or undefined when it is absent or allowed. */
export function refusedOrigin(request: Request, vars: AccessVars): string | undefined {
  const origin = request.headers.get("origin");
  if (origin === null) return undefined;
  if (isAllowedOrigin(origin, new URL(request.url), vars)) return undefined;
  return `Origin '${origin}' is not allowed (set ALLOWED_ORIGINS to allow other origins)`;
}
