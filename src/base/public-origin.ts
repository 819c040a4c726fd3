/**
 * The origin every URL Faultline prints or returns starts with. Behind a TLS reverse proxy the Worker sees
 * http://<upstream>, not what users reach, so FAULTLINE_PUBLIC_URL (an http(s) origin) wins when set;
 * otherwise the origin the request came to. `env` is undefined when a route runs under Hono's `app.request` without one.
 */
export function publicOrigin(request: Request | string, env: { FAULTLINE_PUBLIC_URL?: string } | undefined): string {
  const configured = env?.FAULTLINE_PUBLIC_URL?.trim();
  if (configured) {
    const url = URL.parse(configured);
    if (url && (url.protocol === "https:" || url.protocol === "http:")) return url.origin;
  }
  return new URL(typeof request === "string" ? request : request.url).origin;
}
