import type { Decision } from "../faults/schema.ts";
import type { RequestFacts, Scenario } from "../scenario.ts";
import type { RequestId } from "./jsonrpc.ts";

export interface McpSessionRow {
  id: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  ended: boolean;
}

/** What the endpoint needs from the session's Durable Object. */
export interface SessionRuntime {
  scenario: Scenario;
  params: Record<string, unknown>;
  /** Atomically counts this POST and returns the counts that include it. */
  count(facts: { method?: string; tool?: string; mcpSessionId?: string }): { posts: number; method: number; tool: number; mcpSession: number };
  tally(key: string): number;
  peek(key: string): number;
  createMcpSession(id: string, protocolVersion: string, clientCapabilities: Record<string, unknown>, clientInfo: unknown): void;
  getMcpSession(id: string): McpSessionRow | undefined;
  endMcpSession(id: string): boolean;
  stateKey(): Promise<CryptoKey>;
  waitForClient(id: string, timeoutMs: number): Promise<unknown>;
  deliverToServer(id: RequestId, message: unknown): boolean;
  keepForResume(eventId: string, message: Record<string, unknown>): void;
  takeResumed(eventId: string): Record<string, unknown> | undefined;
  waitUntil(promise: Promise<unknown>): void;
  now(): number;
}

/** What happened, for the journal: the facts the scenario saw and the fault it chose. */
export interface Handled {
  response: Response;
  facts?: RequestFacts;
  decision?: Decision;
  requestBody?: string;
}
