import type { ListChange, McpSessionRow, RequestCounts, SessionRuntime } from "../mcp/runtime.ts";
import { importKey } from "../mcp/request-state.ts";
import type { RequestId } from "../wire/jsonrpc.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { LogLevel } from "../mcp/tool.ts";
import { SqlTaskStore } from "./task-store.ts";
import { boundedCapabilities, boundedClientInfo, cutName } from "../base/stored-bounds.ts";

type SqlValue = ArrayBuffer | string | number | null;

/**
 * What LiveSession uses of its Durable Object's state (DurableObjectState matches it), named structurally so the
 * Node tests run it on node:sqlite.
 */
export interface SessionSql {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): Iterable<T> & { toArray(): T[]; one(): T; readonly rowsWritten: number };
}
export interface SessionState {
  readonly storage: { readonly sql: SessionSql };
  waitUntil(promise: Promise<unknown>): void;
}

/** Counter values kept in memory at most (one per method, tool and MCP session seen); past it, memory starts again. */
const COUNTERS_IN_MEMORY = 10_000;
/** Counters per upsert: a Durable Object's SQL takes at most 100 bound parameters per statement. */
const COUNTERS_PER_STATEMENT = 40;

/** MCP sessions kept in memory at most; past it, memory starts again from storage. */
const MCP_SESSIONS_IN_MEMORY = 1_000;
/** Responses under way on MCP sessions that are kept to end at once; past it the oldest are let go (they end at their deadline). */
const IN_FLIGHT_LIMIT = 1_000;

/**
 * Bounds on a session's tables that clients grow (docs/security.md, "What a session stores"): distinct counter keys
 * (past it, a new key is counted in its family's overflow key, `method:(other)`…), MCP sessions (`mcp_sessions`) and
 * kept resumable events (`resumable`); past either of the last two the oldest rows go first.
 */
export const SESSION_TABLE_LIMITS = { counterKeys: 4_096, mcpSessions: 1_000, resumable: 100 } as const;

/** The key a counter past SESSION_TABLE_LIMITS.counterKeys is counted under: its family's (up to the first colon). */
export const overflowKey = (key: string) => `${key.slice(0, key.indexOf(":") + 1)}(other)`;

/** An MCP session as stored: its row, and the clientInfo its initialize sent. */
interface McpSessionMemory {
  row: McpSessionRow;
  clientInfo: Record<string, unknown> | undefined;
}

/** Keys of the counters a request is counted under. */
const REQUEST_COUNTERS = { posts: "posts", method: "method:", tool: "tool-calls:", mcpSession: "mcp-session:" } as const;

/**
 * The MCP side of one session's Durable Object: counters, MCP sessions, pending server requests and open listen
 * streams. Built once per Durable Object (and again after erase), so a request costs no set-up. Memory that is not
 * in SQLite (listeners, log levels, waiting requests) belongs to this object, that is to the session, whichever URL
 * path reached it.
 */
export class LiveSession implements SessionRuntime {
  private readonly sql: SessionSql;
  private readonly ctx: SessionState;
  private readonly waiting = new Map<string, (message: unknown) => void>();
  private readonly listeners = new Set<(change: ListChange) => void>();
  private readonly logLevels = new Map<string, LogLevel>();
  private key: Promise<CryptoKey> | undefined;
  /**
   * The counters, write-behind: the values this instance read or counted, and which of them changed since the last
   * flushCounters(). The object is the counters' only writer and runs one request at a time, so memory is exact;
   * storage catches up at the owner's next flush (see SessionObject), so a request writes nothing itself.
   */
  private readonly counts = new Map<string, number>();
  private readonly changed = new Set<string>();
  /** Distinct counter keys stored or waiting, read from storage when first needed; undefined: not read yet. */
  private keys: number | undefined;
  private readonly flushSoon: () => void;

  constructor(ctx: SessionState, flushSoon: () => void) {
    this.ctx = ctx;
    this.sql = ctx.storage.sql;
    this.flushSoon = flushSoon;
    this.tasks = new SqlTaskStore(this.sql, () => this.now());
  }

  readonly tasks: SqlTaskStore;

  /** Counts the request under every key that applies; returns the counts that include it. */
  countRequest(facts: { method?: string; tool?: string; mcpSessionId?: string }): RequestCounts {
    return {
      posts: this.count(REQUEST_COUNTERS.posts),
      method: facts.method ? this.count(REQUEST_COUNTERS.method + facts.method) : 0,
      tool: facts.tool ? this.count(REQUEST_COUNTERS.tool + facts.tool) : 0,
      mcpSession: facts.mcpSessionId ? this.count(REQUEST_COUNTERS.mcpSession + facts.mcpSessionId) : 0,
    };
  }

  count(key: string): number {
    const slot = this.slot(key);
    const n = this.read(slot) + 1;
    if (n === 1 && this.keys !== undefined) this.keys++;
    this.counts.set(slot, n);
    this.changed.add(slot);
    if (this.changed.size === 1) this.flushSoon();
    return n;
  }

  counted(key: string): number {
    return this.read(this.slot(key));
  }

  /**
   * Where a key is counted: the key cut like a name (MAX_STORED_NAME), or its family's overflow key when it is new
   * and the session holds SESSION_TABLE_LIMITS.counterKeys keys already, so a client's names cannot grow the table.
   */
  private slot(key: string): string {
    const cut = cutName(key);
    if (this.read(cut) > 0) return cut;
    this.keys ??= this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM counters").one().n;
    return this.keys < SESSION_TABLE_LIMITS.counterKeys ? cut : overflowKey(cut);
  }

  private read(key: string): number {
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const n = this.sql.exec<{ n: number }>("SELECT n FROM counters WHERE k = ?", key).toArray()[0]?.n ?? 0;
    // Bounded: past the limit, what is stored is read again (after a flush, so nothing unwritten is forgotten).
    if (this.counts.size >= COUNTERS_IN_MEMORY) this.flushCounters(), this.counts.clear();
    this.counts.set(key, n);
    return n;
  }

  /** Writes the counters changed since the last flush, a few per statement. */
  flushCounters(): void {
    if (this.changed.size === 0) return;
    const rows = [...this.changed].map((k) => [k, this.counts.get(k)!] as const);
    this.changed.clear();
    for (let i = 0; i < rows.length; i += COUNTERS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + COUNTERS_PER_STATEMENT);
      this.sql.exec(`INSERT INTO counters (k, n) VALUES ${chunk.map(() => "(?, ?)").join(", ")} ON CONFLICT(k) DO UPDATE SET n = excluded.n`, ...chunk.flat());
    }
  }

  /**
   * Every counter back to zero, stored and in memory (a new scenario, or a reset). Memory is emptied, not zeroed, so
   * after a rolled-back transaction the counts are read back from storage.
   */
  clearCounters(): void {
    this.counts.clear();
    this.changed.clear();
    this.keys = undefined;
    this.sql.exec("DELETE FROM counters");
  }

  /** Every counter as stored once the changes in memory are written. */
  allCounters(): Record<string, number> {
    this.flushCounters();
    const counters: Record<string, number> = {};
    for (const row of this.sql.exec<{ k: string; n: number }>("SELECT k, n FROM counters ORDER BY k")) counters[row.k] = row.n;
    return counters;
  }

  /**
   * MCP sessions as this instance read or wrote them (this object is their only writer), so a legacy call reads no
   * row for its Mcp-Session-Id or for the journal's clientInfo. Null: no such session. Bounded.
   */
  private readonly mcpSessions = new Map<string, McpSessionMemory | null>();

  private rememberMcpSession(id: string, memory: McpSessionMemory | null): void {
    if (this.mcpSessions.size >= MCP_SESSIONS_IN_MEMORY) this.mcpSessions.clear();
    this.mcpSessions.set(id, memory);
  }

  private mcpSession(id: string): McpSessionMemory | null {
    const known = this.mcpSessions.get(id);
    if (known !== undefined) return known;
    const row = this.sql
      .exec<{ id: string; protocol_version: string; capabilities: string; client_info: string | null; ended: number }>(
        "SELECT id, protocol_version, capabilities, client_info, ended FROM mcp_sessions WHERE id = ?",
        id,
      )
      .toArray()[0];
    const info: unknown = row?.client_info ? JSON.parse(row.client_info) : undefined;
    const memory = row
      ? { row: { id: row.id, protocolVersion: row.protocol_version, clientCapabilities: JSON.parse(row.capabilities), ended: row.ended === 1 }, clientInfo: info && typeof info === "object" ? (info as Record<string, unknown>) : undefined }
      : null;
    this.rememberMcpSession(id, memory);
    return memory;
  }

  /**
   * Stores a new MCP session, its capabilities and clientInfo bounded (src/base/stored-bounds.ts), and drops the
   * oldest (by creation) past SESSION_TABLE_LIMITS.mcpSessions: a client that drops one gets 404 and initializes again.
   */
  createMcpSession(id: string, protocolVersion: string, clientCapabilities: Record<string, unknown>, clientInfo: unknown): void {
    const info = clientInfo !== null && typeof clientInfo === "object" && !Array.isArray(clientInfo) ? boundedClientInfo(clientInfo as Record<string, unknown>) : null;
    this.sql.exec(
      "INSERT INTO mcp_sessions (id, protocol_version, capabilities, client_info, created_at) VALUES (?, ?, ?, ?, ?)",
      id, cutName(protocolVersion), JSON.stringify(boundedCapabilities(clientCapabilities)), JSON.stringify(info), Date.now(),
    );
    this.mcpSessions.delete(id); // read back as stored
    const dropped = this.sql.exec<{ id: string }>(
      "DELETE FROM mcp_sessions WHERE rowid IN (SELECT rowid FROM mcp_sessions ORDER BY rowid DESC LIMIT -1 OFFSET ?) RETURNING id",
      SESSION_TABLE_LIMITS.mcpSessions,
    );
    for (const row of dropped.toArray()) this.mcpSessions.delete(row.id);
  }

  getMcpSession(id: string): McpSessionRow | undefined {
    return this.mcpSession(id)?.row;
  }

  endMcpSession(id: string): boolean {
    const ended = this.sql.exec("UPDATE mcp_sessions SET ended = 1 WHERE id = ? AND ended = 0", id).rowsWritten > 0;
    if (ended) this.mcpSessions.delete(id);
    return ended;
  }

  clientInfo(mcpSessionId: string): Record<string, unknown> | undefined {
    return this.mcpSession(mcpSessionId)?.clientInfo;
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

  /** Keeps a cut stream's event for a resumption; past SESSION_TABLE_LIMITS.resumable the oldest kept go first. */
  keepForResume(eventId: string, message: Record<string, unknown>): void {
    this.sql.exec("INSERT OR REPLACE INTO resumable (event_id, message, created_at) VALUES (?, ?, ?)", eventId, JSON.stringify(message), Date.now());
    this.sql.exec("DELETE FROM resumable WHERE rowid IN (SELECT rowid FROM resumable ORDER BY rowid DESC LIMIT -1 OFFSET ?)", SESSION_TABLE_LIMITS.resumable);
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

  /** Responses under way on legacy MCP sessions (their deadlines), oldest first; those past their deadline have ended. */
  private readonly inFlight = new Set<Deadline>();

  track(deadline: Deadline): void {
    deadline.endable = true;
    for (const kept of this.inFlight) {
      if (kept.remainingMs() > 0 && this.inFlight.size < IN_FLIGHT_LIMIT) break;
      this.inFlight.delete(kept);
    }
    this.inFlight.add(deadline);
  }

  /**
   * Ends every MCP session at once, as a server restart would: each is marked ended (so its id gets the answer for
   * an ended session), the resumable streams and log levels are forgotten, and every response under way on one of
   * them ends now (open SSE streams close). Returns how many sessions and open streams were ended.
   */
  endAllMcpSessions(): { mcpSessions: number; streams: number } {
    const mcpSessions = this.sql.exec("UPDATE mcp_sessions SET ended = 1 WHERE ended = 0").rowsWritten;
    this.sql.exec("DELETE FROM resumable");
    this.forget();
    let streams = 0;
    for (const deadline of this.inFlight) {
      streams += deadline.openStreams;
      deadline.endNow("every MCP session of this server ended (as on a restart)");
    }
    this.inFlight.clear();
    return { mcpSessions, streams };
  }

  /** Reset: pending server requests are answered with nothing and the MCP sessions' log levels go with them. */
  forget(): void {
    this.mcpSessions.clear();
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
