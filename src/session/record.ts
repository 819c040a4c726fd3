/** A session's selection, as stored and as returned by the API (without the URL). */
export interface SessionRecord {
  id: string;
  scenario: string;
  params: Record<string, unknown>;
  createdAt: string;
  /** Keep a recording of every exchange, full bodies and SSE timing (src/recording/), for a replay session. */
  record?: boolean;
  /** Kept past the idle TTL. */
  keep?: boolean;
  /** A replay session's fault scenario: it decides, the recording answers where the handler would. */
  faults?: { scenario: string; params: Record<string, unknown> };
}

export interface SessionView extends SessionRecord {
  counters: Record<string, number>;
  mcpSessions: number;
}

export const DEFAULT_SESSION_ID = "default";

/** The absolute URL of a session's MCP endpoint. */
export function mcpUrl(origin: string, id: string): string {
  return `${origin}/s/${id}/mcp`;
}

/** The `default` session runs baseline; its Durable Object creates it on its first MCP request (see SessionObject.fetch). */
export function defaultSessionRecord(): SessionRecord {
  return { id: DEFAULT_SESSION_ID, scenario: "baseline", params: { delayMs: 0, responseMode: "json" }, createdAt: new Date().toISOString() };
}
