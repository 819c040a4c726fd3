const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || hostname.endsWith(".localhost");
}

/**
 * DNS-rebinding guard. The Host must be loopback, a workers.dev name, or listed in ALLOWED_HOSTS; an Origin,
 * when present, must be loopback or the server's own origin (2025-11-25 and 2026-07-28: an invalid Origin gets 403).
 */
export function checkOrigin(request: Request, allowedHosts: string | undefined): string | undefined {
  const url = new URL(request.url);
  const allowed = (allowedHosts ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  const host = url.hostname.toLowerCase();
  if (!isLoopback(host) && !host.endsWith(".workers.dev") && !allowed.includes(host) && !allowed.includes("*")) {
    return `Host '${url.host}' is not allowed (set ALLOWED_HOSTS to serve other names)`;
  }
  const origin = request.headers.get("origin");
  if (origin === null) return undefined;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return `Origin '${origin}' is not a valid origin`;
  }
  if (originUrl.origin === url.origin || isLoopback(originUrl.hostname.toLowerCase()) || allowed.includes(originUrl.hostname.toLowerCase())) return undefined;
  return `Origin '${origin}' is not allowed`;
}
