import { isAllowedOrigin, type AccessVars } from "../base/allowlist.ts";

/** The variables that name where users reach this server. */
export interface OriginVars extends AccessVars {
  FAULTLINE_PUBLIC_URL?: string;
}

/** FAULTLINE_PUBLIC_URL's origin when it is an http(s) URL, else undefined. */
function publishedOrigin(vars: OriginVars): URL | undefined {
  const url = URL.parse(vars.FAULTLINE_PUBLIC_URL?.trim() ?? "");
  return url && (url.protocol === "https:" || url.protocol === "http:") ? new URL(url.origin) : undefined;
}

/**
 * The origins that are this server's own: the one the request came to, and the one FAULTLINE_PUBLIC_URL names.
 * Behind a TLS reverse proxy the Worker sees http://127.0.0.1:8787 while the browser is on https://faultline.example,
 * so its pages' Origin is the published one; without it sign-in, API writes and browser MCP calls all got 403.
 */
export function ownOrigins(request: Request, vars: OriginVars): string[] {
  const published = publishedOrigin(vars);
  const here = new URL(request.url).origin;
  return published && published.origin !== here ? [here, published.origin] : [here];
}

/** True when `origin` (an Origin header's value) is this server's own; `null` and a missing header never are. */
export function isOwnOrigin(origin: string | undefined | null, request: Request, vars: OriginVars): boolean {
  return origin !== undefined && origin !== null && ownOrigins(request, vars).includes(origin);
}

/** True when the browser sees this server over https: the request came over https, or the published URL is https. */
export function servedOverHttps(request: Request, vars: OriginVars): boolean {
  return new URL(request.url).protocol === "https:" || publishedOrigin(vars)?.protocol === "https:";
}

/** The allowlist (src/base/allowlist.ts) with the published origin counted as the server's own. */
export function originAllowed(origin: string, request: Request, vars: OriginVars): boolean {
  return isOwnOrigin(origin, request, vars) || isAllowedOrigin(origin, new URL(request.url), vars);
}

/** Why the request's Origin header is refused, or undefined when it is absent or allowed. */
export function refusedOrigin(request: Request, vars: OriginVars): string | undefined {
  const origin = request.headers.get("origin");
  if (origin === null || originAllowed(origin, request, vars)) return undefined;
  return `Origin '${origin}' is not allowed (set ALLOWED_ORIGINS to allow other origins)`;
}
