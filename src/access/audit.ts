import type { Context } from "hono";
import { indexStub } from "../session/index-stub.ts";
import { auditMaxLines, type AuditLine } from "../base/audit-line.ts";
import { tokensEnabled, type TokenVars } from "../base/roles.ts";
import { callerOf } from "./caller.ts";

/**
 * Who the request is: its role, or `local` when no token is configured. Routes run after adminAuth, so with a token
 * configured every caller that got this far has a role.
 */
export async function whoIs(c: Context<{ Bindings: Env }>): Promise<"admin" | "viewer" | "local"> {
  const vars = c.env as TokenVars;
  if (!tokensEnabled(vars)) return "local";
  return (await callerOf(c, vars)).role ?? "local";
}

/** Records a state change made through the API, after it happened. */
export async function audit(c: Context<{ Bindings: Env }>, action: AuditLine["action"], session: string, scenario?: string): Promise<void> {
  await indexStub(c.env).audit({ at: new Date().toISOString(), who: await whoIs(c), action, session, ...(scenario ? { scenario } : {}) }, auditMaxLines(c.env));
}
