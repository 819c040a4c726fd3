import type { MiddlewareHandler } from "hono";
import { unauthorized } from "./auth-refusal.tsx";
import { changesState } from "./paths.ts";
import { refusal } from "./refusal.ts";
import { callerOf, tokensEnabled, type TokenVars } from "../base/roles.ts";
import { reachedBeyondLoopback, tokenRequired } from "./token-required.tsx";

/**
 * What the admin token guards: the management API (but the public scenario catalogue), which includes the journal,
 * its exports and live stream and the checks, and the dashboard's pages. Not the MCP endpoints (a session's MCP
 * URL is what its client is given), the classifier (pure, holds no data), the assets, health or well-known metadata.
 */
export function isProtected(method: string, path: string): boolean {
  if (path.startsWith("/api/")) return !((method === "GET" || method === "HEAD") && (path === "/api/scenarios" || path === "/api/scenarios/"));
  return path === "/" || path.startsWith("/sessions/");
}

/**
 * Without FAULTLINE_ADMIN_TOKEN, the protected routes answer 503 to a request that came from beyond loopback
 * (src/access/token-required.tsx), and are open on loopback. With FAULTLINE_ADMIN_TOKEN set: the protected routes need the admin or viewer token as a Bearer token or the login
 * cookie (401 without); the viewer only reads (403 on a state change); a state change carried by the cookie alone
 * needs an Origin equal to the server's own (the cookie is sent by the browser on its own, so it proves nothing
 * about which page made the request; SameSite=Strict is the first line, this the second).
 */
export const adminAuth: MiddlewareHandler<{ Bindings: TokenVars & { FAULTLINE_PUBLIC_URL?: string } }> = async (c, next) => {
  const vars = c.env ?? {};
  if (!isProtected(c.req.method, c.req.path)) return next();
  if (!tokensEnabled(vars)) return reachedBeyondLoopback(c.req.raw, vars) ? tokenRequired(c) : next();
  const caller = await callerOf(c, vars);
  if (!caller.role) return unauthorized(c, caller.presented);
  if (changesState(c.req.method)) {
    if (caller.role === "viewer") return refusal(c.req.path, 403, "read_only", "The viewer token only reads: this request changes state and needs the admin token");
    if (caller.via === "cookie" && c.req.header("origin") !== new URL(c.req.url).origin) {
      return refusal(c.req.path, 403, "forbidden_origin", "A state change signed in by cookie must come from this server's own pages (Origin is missing or foreign)");
    }
  }
  await next();
};
