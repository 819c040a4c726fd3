/** The MCP endpoints: /mcp (the default session) and /s/{id}/mcp. Their errors are JSON-RPC, everything else's are API errors. */
export function isMcpPath(path: string): boolean {
  return path === "/mcp" || /^\/s\/[^/]+\/mcp$/.test(path);
}

/** Methods that change state; the rest (GET, HEAD, OPTIONS) only read. */
export function changesState(method: string): boolean {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

/** A path segment percent-decoded, or as it is when it is not valid percent-encoding. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
