import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { LoginPage } from "../dashboard/login-page.tsx";
import { securityHeaders } from "../dashboard/security.ts";
import { readCapped } from "../base/read-body.ts";
import { LOGIN_COOKIE, roleOfToken, tokensEnabled, type TokenVars } from "../base/roles.ts";
import { throttleRefusal } from "./admin-auth.ts";
import { routedPath } from "./canonical-path.ts";
import { issueLoginCookie, LOGIN_MAX_AGE_SECONDS, revokeLoginCookie } from "./login-cookie.ts";
import { isOwnOrigin, servedOverHttps, type OriginVars } from "./own-origin.ts";
import { refusal } from "./refusal.ts";
import { clientKey, recordFailure } from "./throttle.ts";
import { weakToken } from "./token-rules.ts";
import { tokenRefused } from "./token-required.tsx";

/** A token fits in far less; a bigger form is refused unread. */
const MAX_LOGIN_BODY_BYTES = 4096;

const OFF = "Sign-in is off: FAULTLINE_ADMIN_TOKEN is not set, so the dashboard needs none";

type Vars = TokenVars & OriginVars;

/** A refusal of the login form: the form again with the reason for a browser, JSON for anything else. */
function formRefusal(c: Context, status: 401 | 403 | 413 | 429, code: string, message: string, headers: Record<string, string> = {}) {
  if ((c.req.header("accept") ?? "").includes("text/html")) return c.html(<LoginPage error={message} />, status, headers);
  return refusal(routedPath(c), status, code, message, headers);
}

/**
 * The dashboard's login form and its POST, which sets a fresh login cookie (src/access/login-cookie.ts; HttpOnly,
 * SameSite=Strict, Secure when the browser reaches the server over https, directly or through the proxy that
 * FAULTLINE_PUBLIC_URL names), and /logout, which revokes that cookie and clears it. Both POSTs must come from this
 * server's own pages (login CSRF): their Origin is the server's, which the dashboard's Referrer-Policy
 * (src/dashboard/security.ts) lets the browser send.
 */
export const loginRoutes = new Hono<{ Bindings: Vars }>()
  .get("/login", securityHeaders, (c) => (tokensEnabled(c.env ?? {}) ? c.html(<LoginPage />) : refusal(routedPath(c), 404, "login_off", OFF)))
  .post("/login", securityHeaders, async (c) => {
    const vars = c.env ?? {};
    if (!tokensEnabled(vars)) return refusal(routedPath(c), 404, "login_off", OFF);
    const weak = weakToken(vars);
    if (weak) return tokenRefused(c, weak);
    if (!isOwnOrigin(c.req.header("origin"), c.req.raw, vars)) return formRefusal(c, 403, "forbidden_origin", "Sign in from this server's own login page (the form was posted from another origin, or with none)");
    const throttled = throttleRefusal(c);
    if (throttled) {
      return formRefusal(c, 429, "too_many_attempts", `Too many wrong tokens from this client: try again in ${throttled.headers.get("retry-after")} s`, {
        "retry-after": throttled.headers.get("retry-after")!,
      });
    }
    const text = await readCapped(c.req.raw, MAX_LOGIN_BODY_BYTES);
    if (text === undefined) return formRefusal(c, 413, "payload_too_large", `The login form is limited to ${MAX_LOGIN_BODY_BYTES} bytes`);
    const token = new URLSearchParams(text).get("token") ?? "";
    const role = token ? await roleOfToken(vars, token) : undefined;
    if (!role) {
      recordFailure(clientKey(c.req.raw));
      return formRefusal(c, 401, "unauthorized", "That token is not valid");
    }
    setCookie(c, LOGIN_COOKIE, await issueLoginCookie(vars, role), {
      httpOnly: true,
      sameSite: "Strict",
      secure: servedOverHttps(c.req.raw, vars),
      path: "/",
      maxAge: LOGIN_MAX_AGE_SECONDS,
    });
    return c.redirect("/", 303);
  })
  .post("/logout", securityHeaders, async (c) => {
    const vars = c.env ?? {};
    if (!isOwnOrigin(c.req.header("origin"), c.req.raw, vars)) return refusal(routedPath(c), 403, "forbidden_origin", "Sign out from this server's own pages");
    const cookie = getCookie(c, LOGIN_COOKIE);
    if (cookie !== undefined) await revokeLoginCookie(vars, cookie);
    deleteCookie(c, LOGIN_COOKIE, { path: "/", secure: servedOverHttps(c.req.raw, vars), httpOnly: true, sameSite: "Strict" });
    return c.redirect("/login", 303);
  });
