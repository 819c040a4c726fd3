import type { Decision } from "../faults/schema.ts";
import type { BearerFacts } from "../mcp/bearer-facts.ts";

/**
 * The 401 a builtin-mode auth scenario answers before its own rule: no token (a challenge without an error code,
 * RFC 6750 §3.1), or a token this session's authorization server did not issue for this resource, revoked or
 * expired (error="invalid_token", §3.1). Undefined for a valid token.
 */
export function refuseBearer(bearer: BearerFacts | undefined, scope: { scope?: string }): Decision | undefined {
  if (!bearer) return { fault: { kind: "unauthorized", ...scope }, reason: "no Authorization: Bearer token" };
  if (!bearer.valid) return { fault: { kind: "unauthorized", error: "invalid_token", ...scope }, reason: "the token was not issued by this session's authorization server for this MCP URL, or it expired or was revoked" };
  return undefined;
}
