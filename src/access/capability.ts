/**
 * Parsing and checking capability URLs (src/access/capability-url.ts makes them): the Worker checks the secret
 * before any Durable Object or the index is touched.
 */

import { parseMcpPath } from "../base/mcp-path.ts";
import { refusal } from "./refusal.ts";
import { capabilitiesEnabled, capabilitySecret } from "../base/capability-url.ts";
import { secretsEqual } from "../base/secret-compare.ts";



const NOT_FOUND =
  "Session not found: this MCP URL names no session. On this server (FAULTLINE_ADMIN_TOKEN is set) a session's MCP URL is /s/{id}.{secret}/mcp, exactly as the API and the dashboard show it";
const PLAIN_MCP =
  "Not found: on this server (FAULTLINE_ADMIN_TOKEN is set) the default session is reached only at its capability URL /s/default.{secret}/mcp: use the MCP URL printed at start (npm start, npm run serve) or shown by the API and the dashboard";
const NO_SECRETS =
  "Not found: this server has no FAULTLINE_ADMIN_TOKEN, so its MCP URLs carry no secret: use /s/{id}/mcp (or /mcp for the default session)";

/**
 * Why an MCP path is refused (a 404 with a JSON-RPC error), or undefined when it may reach its session. With the
 * admin token set, the secret must be the id's HMAC, compared in constant time; a wrong or missing secret gets the
 * same answer whether the id exists or not, and nothing but this HMAC runs for it.
 */
export async function capabilityRefusal(env: object | undefined, path: string): Promise<Response | undefined> {
  const target = parseMcpPath(path);
  if (!target) return undefined;
  if (!capabilitiesEnabled(env)) return target.secret === undefined ? undefined : refusal(path, 404, "not_found", NO_SECRETS);
  if (path === "/mcp") return refusal(path, 404, "not_found", PLAIN_MCP);
  const expected = await capabilitySecret(env, target.id);
  return (await secretsEqual(target.secret ?? "", expected)) ? undefined : refusal(path, 404, "not_found", NOT_FOUND);
}
