/**
 * Where one session's protected resource and authorization server live, read from the URL the client used: the
 * MCP URL is `{origin}{prefix}/mcp` and the issuer `{origin}{prefix}/oauth`, with `prefix` = `/s/{seg}` (or "" for
 * the default session's `/mcp`). Both are derived from the path segment as sent, never rebuilt from the session id,
 * so a capability-form segment (`{id}.{secret}`) stays what the client was given.
 */
export interface Mount {
  /** The public origin (src/public-origin.ts). */
  origin: string;
  /** "" or "/s/{seg}", exactly as it appeared in the request path. */
  prefix: string;
}

/** The protected resource (RFC 8707 / RFC 9728): the session's MCP URL. */
export const resourceOf = (m: Mount): string => `${m.origin}${m.prefix}/mcp`;

/** The session's authorization server issuer identifier (RFC 8414 §2). */
export const issuerOf = (m: Mount): string => `${m.origin}${m.prefix}/oauth`;

/** The mount of an MCP request's URL path (`/mcp` or `/s/{seg}/mcp`); undefined for any other path. */
export function mountOfMcpPath(origin: string, path: string): Mount | undefined {
  if (path === "/mcp") return { origin, prefix: "" };
  const match = /^(\/s\/[^/]+)\/mcp$/.exec(path);
  return match ? { origin, prefix: match[1]! } : undefined;
}
