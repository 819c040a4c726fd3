import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { LOGIN_COOKIE, roleOfToken, tokensEnabled, type Role, type TokenVars } from "../base/roles.ts";
import { checkLoginCookie } from "./login-cookie.ts";

/** Who the request is, and by which credential; `presented` tells a wrong credential from none. */
export interface Caller {
  role: Role | undefined;
  via: "bearer" | "cookie" | undefined;
  presented: boolean;
}

/** The Bearer token of the Authorization header, if it has one. */
export function bearerOf(c: Context): string | undefined {
  return c.req.header("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/** The caller by its Bearer token, else its login cookie (src/access/login-cookie.ts), else nobody. */
export async function callerOf(c: Context, vars: TokenVars): Promise<Caller> {
  const authorization = c.req.header("authorization");
  const bearer = bearerOf(c);
  if (bearer !== undefined) return { role: await roleOfToken(vars, bearer), via: "bearer", presented: true };
  const cookie = getCookie(c, LOGIN_COOKIE);
  if (cookie !== undefined) return { role: (await checkLoginCookie(vars, cookie))?.role, via: "cookie", presented: true };
  return { role: undefined, via: undefined, presented: authorization !== undefined };
}

/** The role a dashboard page shows as "signed in as", or undefined when sign-in is off or the visitor is not signed in. */
export async function signedInAs(c: Context): Promise<Role | undefined> {
  const vars = (c.env ?? {}) as TokenVars;
  if (!tokensEnabled(vars)) return undefined;
  return (await callerOf(c, vars)).role;
}
