import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { LoginPage } from "../dashboard/login-page.tsx";
import { securityHeaders } from "../dashboard/security.ts";
import { readCapped } from "../base/read-body.ts";
import { refusal } from "./refusal.ts";
import { LOGIN_COOKIE, loginCookieValue, roleOfToken, tokensEnabled, type TokenVars } from "../base/roles.ts";

/** A token fits in far less; a bigger form is refused unread. */
const MAX_LOGIN_BODY_BYTES = 4096;

/** How long the login cookie lasts: a week, like the default session TTL. */
const LOGIN_MAX_AGE_SECONDS = 7 * 24 * 3600;

const OFF = "Sign-in is off: FAULTLINE_ADMIN_TOKEN is not set, so the dashboard needs none";

/**
 * The dashboard's login form and its POST, which sets the login cookie (HttpOnly, SameSite=Strict, Secure over
 * https), and /logout, which clears it. Both POSTs must come from this server's own pages (login CSRF).
 */
export const loginRoutes = new Hono<{ Bindings: TokenVars }>()
  .get("/login", securityHeaders, (c) => (tokensEnabled(c.env ?? {}) ? c.html(<LoginPage />) : refusal(c.req.path, 404, "login_off", OFF)))
  .post("/login", securityHeaders, async (c) => {
    const vars = c.env ?? {};
    if (!tokensEnabled(vars)) return refusal(c.req.path, 404, "login_off", OFF);
    const url = new URL(c.req.url);
    if (c.req.header("origin") !== url.origin) return refusal(c.req.path, 403, "forbidden_origin", "Sign in from this server's own login page");
    const text = await readCapped(c.req.raw, MAX_LOGIN_BODY_BYTES);
    if (text === undefined) return refusal(c.req.path, 413, "payload_too_large", `The login form is limited to ${MAX_LOGIN_BODY_BYTES} bytes`);
    const token = new URLSearchParams(text).get("token") ?? "";
    const role = token ? await roleOfToken(vars, token) : undefined;
    if (!role) return c.html(<LoginPage error="That token is not valid" />, 401);
    setCookie(c, LOGIN_COOKIE, await loginCookieValue(role, token), {
      httpOnly: true,
      sameSite: "Strict",
      secure: url.protocol === "https:",
      path: "/",
      maxAge: LOGIN_MAX_AGE_SECONDS,
    });
    return c.redirect("/", 303);
  })
  .post("/logout", (c) => {
    if (c.req.header("origin") !== new URL(c.req.url).origin) return refusal(c.req.path, 403, "forbidden_origin", "Sign out from this server's own pages");
    deleteCookie(c, LOGIN_COOKIE, { path: "/" });
    return c.redirect("/login", 303);
  });
