import type { Context, MiddlewareHandler } from "hono";
import { unauthorized } from "./auth-refusal.tsx";
import { routedPath } from "./canonical-path.ts";
import { callerOf } from "./caller.ts";
import { isOwnOrigin, type OriginVars } from "./own-origin.ts";
import { changesState } from "./paths.ts";
import { refusal } from "./refusal.ts";
import { clientKey, recordFailure, throttledFor } from "./throttle.ts";
import { weakToken } from "./token-rules.ts";
import { tokensEnabled, type TokenVars } from "../base/roles.ts";
import { reachedBeyondLoopback, tokenRefused, tokenRequired } from "./token-required.tsx";

/**
 * What the admin token guards: the management API (but the public scenario catalogue), which includes the journal,
 * its exports and live stream and the checks, and the dashboard's pages. Not the MCP endpoints (a session's MCP
 * URL is what its client is given), the classifier (pure, holds no data), the assets, health or well-known metadata.
 */
export function isProtected(method: string, path: string): boolean {
  if (path.startsWith("/api/")) return !((method === "GET" || method === "HEAD") && (path === "/api/scenarios" || path === "/api/scenarios/"));
  return path === "/" || path.startsWith("/sessions/");
}

/** The 429 of a client that guessed too often (src/access/throttle.ts), or undefined when it may try. */
export function throttleRefusal(c: Context): Response | undefined {
  const wait = throttledFor(clientKey(c.req.raw));
  if (wait === undefined) return undefined;
  const message = `Too many wrong tokens from this client: try again in ${wait} s`;
  return refusal(routedPath(c), 429, "too_many_attempts", message, { "retry-after": String(wait) });
}

/**
 * Without FAULTLINE_ADMIN_TOKEN, the protected routes answer 503 to a request that came from beyond loopback
 * (src/access/token-required.tsx), and are open on loopback. With FAULTLINE_ADMIN_TOKEN set: a token shorter than
 * the minimum (src/access/token-rules.ts) turns the protected routes off (503) rather than guard them weakly; else
 * they need the admin or viewer token as a Bearer token or the login cookie (401 without); a Bearer guess is
 * throttled (429); the viewer only reads (403 on a state change); a state change carried by the cookie alone needs
 * an Origin that is this server's own (the cookie is sent by the browser on its own, so it proves nothing about which
 * page made the request; SameSite=Strict is the first line, this the second).
 */
export const adminAuth: MiddlewareHandler<{ Bindings: TokenVars & OriginVars }> = async (c, next) => {
  const vars = c.env ?? {};
  const path = routedPath(c);
  if (!isProtected(c.req.method, path)) return next();
  if (!tokensEnabled(vars)) return reachedBeyondLoopback(c.req.raw, vars) ? tokenRequired(c) : next();
  const weak = weakToken(vars);
  if (weak) return tokenRefused(c, weak);
  const caller = await throttledCaller(c, vars);
  if (caller instanceof Response) return caller;
  if (!caller.role) return unauthorized(c, caller.presented);
  if (changesState(c.req.method)) {
    if (caller.role === "viewer") return refusal(path, 403, "read_only", "The viewer token only reads: this request changes state and needs the admin token");
    if (caller.via === "cookie" && !isOwnOrigin(c.req.header("origin"), c.req.raw, vars)) {
      return refusal(path, 403, "forbidden_origin", "A state change signed in by cookie must come from this server's own pages (Origin is missing or foreign)");
    }
  }
  await next();
};

/**
 * The caller, with Bearer guesses throttled: a throttled client's token is not compared at all, and a wrong one
 * counts. The login cookie is not throttled: it is a 256-bit MAC nobody guesses, and a signed-in browser keeps
 * working while someone else hammers the door.
 */
async function throttledCaller(c: Context, vars: TokenVars) {
  const bearer = /^Bearer\s/i.test(c.req.header("authorization") ?? "");
  if (bearer) {
    const throttled = throttleRefusal(c);
    if (throttled) return throttled;
  }
  const caller = await callerOf(c, vars);
  if (caller.via === "bearer" && !caller.role) recordFailure(clientKey(c.req.raw));
  return caller;
}
