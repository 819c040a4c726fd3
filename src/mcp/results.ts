import { SERVER_CAPABILITIES } from "./dispatch.ts";
import { META, SERVER_INFO, type Era } from "./versions.ts";

export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The legacy initialize result; `store` keeps the MCP session only when the result is really produced. */
export function initializeHandler(protocolVersion: string, store: () => void) {
  return async () => (store(), {
    protocolVersion,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: "Faultline: an MCP server that injects faults chosen by the session's scenario.",
  });
}

const CACHEABLE = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

/** 2026-07-28 (SEP-2549): these results MUST carry ttlMs and cacheScope; handlers that set none get "do not cache". */
export function withCacheHints(era: Era, method: string, result: Record<string, unknown>): Record<string, unknown> {
  if (era !== "modern" || !CACHEABLE.has(method)) return result;
  return { ttlMs: 0, cacheScope: "public", ...result };
}

export function withServerInfo(era: Era, result: Record<string, unknown>): Record<string, unknown> {
  if (era !== "modern") return result;
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  return { ...result, _meta: { ...meta, [META.serverInfo]: SERVER_INFO } };
}

