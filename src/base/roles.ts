import { getCookie } from "hono/cookie";
import type { Context } from "hono";
import { hmacBase64Url, secretsEqual } from "./secret-compare.ts";

/** The token variables; set as wrangler secrets when deployed, in the environment or .dev.vars locally. */
export interface TokenVars {
  FAULTLINE_ADMIN_TOKEN?: string;
  FAULTLINE_VIEWER_TOKEN?: string;
}

export type Role = "admin" | "viewer";

/** The login cookie set by the dashboard's login form (src/access/login.tsx). */
export const LOGIN_COOKIE = "faultline_login";

/** Whether the admin token is set, i.e. whether the management surface is protected at all. */
export function tokensEnabled(vars: TokenVars): boolean {
  return Boolean(vars.FAULTLINE_ADMIN_TOKEN);
}

function tokens(vars: TokenVars): Array<[Role, string]> {
  const list: Array<[Role, string]> = [];
  if (vars.FAULTLINE_ADMIN_TOKEN) list.push(["admin", vars.FAULTLINE_ADMIN_TOKEN]);
  if (vars.FAULTLINE_VIEWER_TOKEN) list.push(["viewer", vars.FAULTLINE_VIEWER_TOKEN]);
  return list;
}

/**
 * The cookie's value for a role: an HMAC of the role under its token, so the browser never holds the token itself
 * and changing the token signs every cookie out.
 */
export function loginCookieValue(role: Role, token: string): Promise<string> {
  return hmacBase64Url(token, `faultline login cookie v1: ${role}`);
}

/** The role a presented token grants, each candidate compared in constant time. */
export async function roleOfToken(vars: TokenVars, presented: string): Promise<Role | undefined> {
  let found: Role | undefined;
  for (const [role, token] of tokens(vars)) if (await secretsEqual(presented, token)) found ??= role;
  return found;
}

async function roleOfCookie(vars: TokenVars, presented: string): Promise<Role | undefined> {
  let found: Role | undefined;
  for (const [role, token] of tokens(vars)) if (await secretsEqual(presented, await loginCookieValue(role, token))) found ??= role;
  return found;
}

/** Who the request is, and by which credential; `presented` tells a wrong credential from none. */
export interface Caller {
  role: Role | undefined;
  via: "bearer" | "cookie" | undefined;
  presented: boolean;
}

export async function callerOf(c: Context, vars: TokenVars): Promise<Caller> {
  const authorization = c.req.header("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer !== undefined) return { role: await roleOfToken(vars, bearer), via: "bearer", presented: true };
  const cookie = getCookie(c, LOGIN_COOKIE);
  if (cookie !== undefined) return { role: await roleOfCookie(vars, cookie), via: "cookie", presented: true };
  return { role: undefined, via: undefined, presented: authorization !== undefined };
}
