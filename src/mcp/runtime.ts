import type { BearerFacts } from "./bearer-facts.ts";
import type { Scenario } from "./scenario.ts";
import type { RequestId } from "../wire/jsonrpc.ts";
import type { LogLevel } from "./tool.ts";
import type { TaskStore } from "./tasks/store.ts";
import type { Deadline } from "../wire/deadline.ts";

export interface McpSessionRow {
  id: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  ended: boolean;
}

/** The counts a request is judged by, including the request itself. */
export interface RequestCounts {
  posts: number;
  method: number;
  tool: number;
  mcpSession: number;
}

export type ListChange = { list: "tools" | "prompts" };

/** The scenario a session runs, with its validated params. */
export interface ActiveScenario {
  scenario: Scenario;
  params: Record<string, unknown>;
  /** The request's bearer token as an auth scenario may know it (src/oauth/bearer.ts). */
  bearer?: BearerFacts;
}

/** What the MCP endpoint needs from the session's Durable Object; one object per session, not per request. */
export interface SessionRuntime {
  /** Counts this POST, its method, tool and MCP session; returns the counts that include it. */
  countRequest(facts: { method?: string; tool?: string; mcpSessionId?: string }): RequestCounts;
  /** Counts one more under `key` and returns the new count. */
  count(key: string): number;
  /** The count under `key`, unchanged. */
  counted(key: string): number;
  createMcpSession(id: string, protocolVersion: string, clientCapabilities: Record<string, unknown>, clientInfo: unknown): void;
  getMcpSession(id: string): McpSessionRow | undefined;
  endMcpSession(id: string): boolean;
  /**
   * A response on one of this server's legacy MCP sessions is under way: ending every MCP session at once (a restart,
   * POST /api/sessions/{id}/expire-mcp-sessions) ends it too, through its deadline.
   */
  track?(deadline: Deadline): void;
  stateKey(): Promise<CryptoKey>;
  waitForClient(id: string, timeoutMs: number): Promise<unknown>;
  deliverToServer(id: RequestId, message: unknown): boolean;
  keepForResume(eventId: string, message: Record<string, unknown>): void;
  takeResumed(eventId: string): Record<string, unknown> | undefined;
  /** Legacy eras: the level set with logging/setLevel on an MCP session (in memory; a restart forgets it). */
  logLevel(mcpSessionId: string): LogLevel | undefined;
  setLogLevel(mcpSessionId: string, level: LogLevel): void;
  /** Open subscriptions/listen streams of this session, whichever path (/mcp or /s/{id}/mcp) they came by. */
  subscribe(listener: (change: ListChange) => void): () => void;
  publish(change: ListChange): void;
  waitUntil(promise: Promise<unknown>): void;
  now(): number;
  /** The session's tasks (SEP-2663), in its SQLite (src/session/task-store.ts). */
  readonly tasks?: TaskStore;
}
