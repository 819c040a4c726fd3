/** The session id of `/mcp`, the session every instance has. */
export const DEFAULT_SESSION_ID = "default";

/** A path segment percent-decoded, or as it is when it is not valid percent-encoding. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** An MCP path taken apart: the session it names and the secret it carries, if any. */
export interface McpTarget {
  id: string;
  secret: string | undefined;
}

/**
 * `/mcp` (the default session), `/s/{id}/mcp` or `/s/{id}.{secret}/mcp`; undefined for any other path. Session ids
 * are [a-z0-9-] and the secret is base64url, so the first "." is where the secret starts.
 */
export function parseMcpPath(path: string): McpTarget | undefined {
  if (path === "/mcp") return { id: DEFAULT_SESSION_ID, secret: undefined };
  const segment = path.match(/^\/s\/([^/]+)\/mcp$/)?.[1];
  if (segment === undefined) return undefined;
  const text = decodedSegment(segment);
  const dot = text.indexOf(".");
  return dot < 0 ? { id: text, secret: undefined } : { id: text.slice(0, dot), secret: text.slice(dot + 1) };
}
