import { META, SERVER_INFO, type Era } from "./versions.ts";

/** What every result carries in each era, added around a handler's result. */

/** Modern results carry resultType; legacy ones never do. */
export function withResultType(era: Era, result: Record<string, unknown>): Record<string, unknown> {
  return era === "modern" ? { resultType: "complete", ...result } : result;
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

/** The full result of a handler in an era. */
export function shapeResult(era: Era, method: string, result: Record<string, unknown>): Record<string, unknown> {
  return withResultType(era, withServerInfo(era, withCacheHints(era, method, result)));
}
