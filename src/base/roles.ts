import { secretsEqual } from "./secret-compare.ts";

/** The token variables; set as wrangler secrets when deployed, in the environment or .dev.vars locally. */
export interface TokenVars {
  FAULTLINE_ADMIN_TOKEN?: string;
  FAULTLINE_VIEWER_TOKEN?: string;
}

export type Role = "admin" | "viewer";

/** The login cookie set by the dashboard's login form (src/access/login-routes.tsx; its value: src/access/login-cookie.ts). */
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

/** The role a presented token grants, each candidate compared in constant time. */
export async function roleOfToken(vars: TokenVars, presented: string): Promise<Role | undefined> {
  let found: Role | undefined;
  for (const [role, token] of tokens(vars)) if (await secretsEqual(presented, token)) found ??= role;
  return found;
}
