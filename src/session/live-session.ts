import type { ListChange, McpSessionRow, RequestCounts, SessionRuntime } from "../mcp/runtime.ts";
import { importKey } from "../mcp/request-state.ts";
import type { RequestId } from "../mcp/jsonrpc.ts";
import type { LogLevel } from "../mcp/tool.ts";

/** Keys of the counters a request is counted under. */
const REQUEST_COUNTERS = { posts: "posts", method: "method:", tool: "tool-calls:", mcpSession: "mcp-session:" } as const;

/**
 * The MCP side of one session's Durable Object: counters, MCP sessions, pending server requests and open listen
 * streams. Built once per Durable Object (and again after erase), so a request costs no set-up. Memory that is not
 * in SQLite (listeners, log levels, waiting requests) belongs to this object, that is to the session, whichever URL
 * path reached it.
 */
export class LiveSession implements SessionRuntime {
  private readonly sql: SqlStorage;
  private readonly ctx: DurableObjectState;
  private readonly waiting = new Map<string, (message: unknown) => void>();
  private readonly listeners = new Set<(change: ListChange) => void>();
  private readonly logLevels = new Map<string, LogLevel>();
  private key: Promise<CryptoKey> | undefined;

  constructor(ctx: DurableObjectState) {
    this.ctx = ctx;
    this.sql = ctx.storage.sql;
  }

  /** Counts the request under every key that applies in one statement, so the counts are atomic without a transaction. */
  countRequest(facts: { method?: string; tool?: string; mcpSessionId?: string }): RequestCounts {
    const keys: [keyof RequestCounts, string][] = [["posts", REQUEST_COUNTERS.posts]];
    if (facts.method) keys.push(["method", REQUEST_COUNTERS.method + facts.method]);
    if (facts.tool) keys.push(["tool", REQUEST_COUNTERS.tool + facts.tool]);
    if (facts.mcpSessionId) keys.push(["mcpSession", REQUEST_COUNTERS.mcpSession + facts.mcpSessionId]);
    const rows = this.sql
      .exec<{ k: string; n: number }>(
        `INSERT INTO counters (k, n) VALUES ${keys.map(() => "(?, 1)").join(", ")} ON CONFLICT(k) DO UPDATE SET n = n + 1 RETURNING k, n`,
        ...keys.map(([, key]) => key),
      )
      .toArray();
    const counts: RequestCounts = { posts: 0, method: 0, tool: 0, mcpSession: 0 };
    for (const [name, key] of keys) counts[name] = rows.find((row) => row.k === key)?.n ?? 0;
    return counts;
  }

  count(key: string): number {
    return this.sql.exec<{ n: number }>("INSERT INTO counters (k, n) VALUES (?, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1 RETURNING n", key).one().n;
  }

  counted(key: string): number {
    return this.sql.exec<{ n: number }>("SELECT n FROM counters WHERE k = ?", key).toArray()[0]?.n ?? 0;
  }

  createMcpSession(id: string, protocolVersion: string, clientCapabilities: Record<string, unknown>, clientInfo: unknown): void {
    this.sql.exec(
      "INSERT INTO mcp_sessions (id, protocol_version, capabilities, client_info, created_at) VALUES (?, ?, ?, ?, ?)",
      id, protocolVersion, JSON.stringify(clientCapabilities), JSON.stringify(clientInfo ?? null), Date.now(),
    );
  }

  getMcpSession(id: string): McpSessionRow | undefined {
    const row = this.sql
      .exec<{ id: string; protocol_version: string; capabilities: string; ended: number }>("SELECT id, protocol_version, capabilities, ended FROM mcp_sessions WHERE id = ?", id)
      .toArray()[0];
    return row ? { id: row.id, protocolVersion: row.protocol_version, clientCapabilities: JSON.parse(row.capabilities), ended: row.ended === 1 } : undefined;
  }

  endMcpSession(id: string): boolean {
    return this.sql.exec("UPDATE mcp_sessions SET ended = 1 WHERE id = ? AND ended = 0", id).rowsWritten > 0;
  }

  clientInfo(mcpSessionId: string): Record<string, unknown> | undefined {
    const row = this.sql.exec<{ client_info: string | null }>("SELECT client_info FROM mcp_sessions WHERE id = ?", mcpSessionId).toArray()[0];
    const info = row?.client_info ? JSON.parse(row.client_info) : undefined;
    return info && typeof info === "object" ? info : undefined;
  }

  stateKey(): Promise<CryptoKey> {
    this.key ??= (async () => {
      const row = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'state-key'").toArray()[0];
      let raw: Uint8Array<ArrayBuffer>;
      if (row) {
        raw = Uint8Array.from(atob(row.v), (c) => c.charCodeAt(0));
      } else {
        raw = crypto.getRandomValues(new Uint8Array(32));
        this.sql.exec("INSERT INTO config (k, v) VALUES ('state-key', ?)", btoa(String.fromCharCode(...raw)));
      }
      return importKey(raw);
    })();
    return this.key;
  }

  waitForClient(id: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(message);
      });
    });
  }

  deliverToServer(id: RequestId, message: unknown): boolean {
    const resolve = this.waiting.get(String(id));
    resolve?.(message);
    return resolve !== undefined;
  }

  keepForResume(eventId: string, message: Record<string, unknown>): void {
    this.sql.exec("INSERT OR REPLACE INTO resumable (event_id, message, created_at) VALUES (?, ?, ?)", eventId, JSON.stringify(message), Date.now());
  }

  takeResumed(eventId: string): Record<string, unknown> | undefined {
    const row = this.sql.exec<{ message: string }>("DELETE FROM resumable WHERE event_id = ? RETURNING message", eventId).toArray()[0];
    return row ? (JSON.parse(row.message) as Record<string, unknown>) : undefined;
  }

  logLevel(mcpSessionId: string): LogLevel | undefined {
    return this.logLevels.get(mcpSessionId);
  }

  setLogLevel(mcpSessionId: string, level: LogLevel): void {
    if (this.logLevels.size > 10_000) this.logLevels.clear();
    this.logLevels.set(mcpSessionId, level);
  }

  subscribe(listener: (change: ListChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: ListChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Reset: pending server requests are answered with nothing and the MCP sessions' log levels go with them. */
  forget(): void {
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    this.logLevels.clear();
  }

  waitUntil(promise: Promise<unknown>): void {
    this.ctx.waitUntil(promise);
  }

  now(): number {
    return Date.now();
  }
}
