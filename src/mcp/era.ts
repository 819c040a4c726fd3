import { isLegacyVersion, META, type Era } from "../wire/versions.ts";

/**
 * A request with 2026-07-28 `_meta` (or modern headers) is served statelessly; `initialize` and a session id
 * select the legacy semantics (2026-07-28 streamable-http "Backward Compatibility").
 */
export function detectEra(method: string, params: Record<string, unknown>, headers: Record<string, string>): Era {
  const meta = params._meta;
  // An initialize stamped with 2026-07-28 _meta is a modern request for a removed method (404, -32601).
  if (typeof meta === "object" && meta !== null && META.protocolVersion in meta) return "modern";
  if (method === "initialize") return "legacy";
  // A 2025 version header decides before Mcp-Method: legacy clients may send the 2026 headers too.
  const version = headers["mcp-protocol-version"];
  if (version !== undefined) return isLegacyHeader(version) ? "legacy" : "modern";
  if (headers["mcp-method"] !== undefined) return "modern";
  if (headers["mcp-session-id"] !== undefined) return "legacy";
  return "modern";
}

/**
 * 2025-11-25 transports: a request without MCP-Protocol-Version is served as 2025-03-26, so an explicit 2025-03-26
 * header on a legacy session gets the same service rather than a 400.
 */
export function isLegacyHeader(version: string): boolean {
  return isLegacyVersion(version) || version === "2025-03-26";
}
