import { tokensEnabled, type TokenVars } from "./roles.ts";
import { hmacBase64Url } from "./secret-compare.ts";

/**
 * Capability URLs. With FAULTLINE_ADMIN_TOKEN set, a session's MCP URL is `/s/{id}.{secret}/mcp`: the secret is an
 * HMAC-SHA-256 of the id under a server key, so the Worker checks it with no storage at all, before any Durable
 * Object (or the index) is touched, and an MCP client needs nothing but the URL (as Cursor and Claude Desktop
 * configs expect). Without the token nothing changes: `/mcp` and `/s/{id}/mcp`.
 *
 * The server key is FAULTLINE_URL_KEY when set, else derived from the admin token (an HMAC under it with a fixed
 * label), so by default rotating the admin token rotates every MCP URL; setting FAULTLINE_URL_KEY lets either be
 * rotated without the other.
 */
export interface CapabilityVars extends TokenVars {
  FAULTLINE_URL_KEY?: string;
}

/** 22 base64url characters: 132 bits of the HMAC, past the 128 bits a guess would have to find. */
const SECRET_CHARS = 22;
const KEY_LABEL = "faultline capability url key v1";
const SECRET_LABEL = "faultline mcp url v1: ";

/** The variables above from the Worker's env (typed without secrets, which wrangler types does not list). */
function varsOf(env: object | undefined): CapabilityVars {
  return (env ?? {}) as CapabilityVars;
}

/** Whether MCP URLs carry a secret on this server: exactly when the admin token is set. */
export function capabilitiesEnabled(env: object | undefined): boolean {
  return tokensEnabled(varsOf(env));
}

/** The secret of a session's MCP URL; only meaningful with the admin token set. */
export async function capabilitySecret(env: object | undefined, id: string): Promise<string> {
  const vars = varsOf(env);
  const key = vars.FAULTLINE_URL_KEY || (await hmacBase64Url(vars.FAULTLINE_ADMIN_TOKEN ?? "", KEY_LABEL));
  return (await hmacBase64Url(key, `${SECRET_LABEL}${id}`)).slice(0, SECRET_CHARS);
}

/** The path of a session's MCP endpoint: with its secret when the admin token is set. */
export async function mcpPath(env: object | undefined, id: string): Promise<string> {
  return capabilitiesEnabled(env) ? `/s/${id}.${await capabilitySecret(env, id)}/mcp` : `/s/${id}/mcp`;
}

/** The absolute URL of a session's MCP endpoint, as the API, the dashboard and the start-up line show it. */
export async function mcpUrl(env: object | undefined, origin: string, id: string): Promise<string> {
  return `${origin}${await mcpPath(env, id)}`;
}
