export { decodedSegment } from "../base/mcp-path.ts";

/** The MCP endpoints: /mcp (the default session) and /s/{id}/mcp. Their errors are JSON-RPC, everything else's are API errors. */
export function isMcpPath(path: string): boolean {
  return path === "/mcp" || /^\/s\/[^/]+\/mcp$/.test(path);
}

/** Methods that change state; the rest (GET, HEAD, OPTIONS) only read. */
export function changesState(method: string): boolean {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}
