import type { UpstreamConfig } from "../proxy/config.ts";

/** A session's selection, as stored and as returned by the API (without the URL). */
export interface SessionRecord {
  id: string;
  scenario: string;
  params: Record<string, unknown>;
  createdAt: string;
  /** Proxy mode: the real MCP server the session forwards to, checked against FAULTLINE_UPSTREAMS at creation. */
  upstream?: UpstreamConfig;
  /** Exempt from idle expiry (FAULTLINE_SESSION_TTL_HOURS) when true; set at creation only, absent otherwise. */
  keep?: true;
  /** Keep a recording of every exchange, full bodies and SSE timing (src/recording/), for a replay session. */
  record?: boolean;
  /** A replay session's fault scenario: it decides, the recording answers where the handler would. */
  faults?: { scenario: string; params: Record<string, unknown> };
}

export interface SessionView extends SessionRecord {
  counters: Record<string, number>;
  mcpSessions: number;
}

export { DEFAULT_SESSION_ID } from "../base/mcp-path.ts";
import { DEFAULT_SESSION_ID } from "../base/mcp-path.ts";

/** The `default` session runs baseline; its Durable Object creates it on its first MCP request (see SessionObject.fetch). */
export function defaultSessionRecord(): SessionRecord {
  return { id: DEFAULT_SESSION_ID, scenario: "baseline", params: { delayMs: 0, responseMode: "json" }, createdAt: new Date().toISOString() };
}
