import { DurableObject } from "cloudflare:workers";
import { findScenario } from "../../scenarios/index.ts";
import { DEFAULT_BODY_CAP } from "../journal/capture.ts";
import type { JournalEntry } from "../journal/entry.ts";
import { journalled } from "../journal/recorder.ts";
import { DEFAULT_RETENTION, JournalStore, type JournalQuery } from "../journal/store.ts";
import { Deadline } from "../mcp/deadline.ts";
import { ErrorCode, errorMessage } from "../mcp/jsonrpc.ts";
import { handleMcp } from "../mcp/pipeline.ts";
import { jsonResponse } from "../mcp/wire.ts";
import { LiveSession } from "./live-session.ts";
import { DEFAULT_SESSION_ID, defaultSessionRecord, type SessionRecord, type SessionView } from "./record.ts";
import { indexStub } from "./index-stub.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS config (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id TEXT PRIMARY KEY, protocol_version TEXT NOT NULL, capabilities TEXT NOT NULL, client_info TEXT,
  created_at INTEGER NOT NULL, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS resumable (event_id TEXT PRIMARY KEY, message TEXT NOT NULL, created_at INTEGER NOT NULL);
`;

/** One Faultline session: its scenario, counters and MCP state, in SQLite. Every update is one synchronous statement. */
export class SessionObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private live: LiveSession;
  private journal: JournalStore;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.journal = this.openStorage();
    this.live = new LiveSession(ctx);
  }

  /** True after erase() until the next create(): the storage is empty and must stay so. */
  private erased = false;

  private openStorage(): JournalStore {
    this.sql.exec(SCHEMA);
    this.erased = false;
    this.journal = this.openJournal();
    return this.journal;
  }

  /** Creates the journal's tables when missing; after deleteAll() they must be created again. */
  private openJournal(): JournalStore {
    return new JournalStore(this.sql, {
      maxEntries: positive(this.env.JOURNAL_MAX_ENTRIES, DEFAULT_RETENTION.maxEntries),
      maxAgeMs: positive(this.env.JOURNAL_MAX_AGE_HOURS, DEFAULT_RETENTION.maxAgeMs / 3_600_000) * 3_600_000,
    });
  }

  // ---- the journal ----

  /** Matching entries; undefined when the session does not exist. */
  journalPage(query: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } | undefined {
    return this.record() ? this.journal.query(query) : undefined;
  }

  /** Entries since the scenario was last set or reset: what the checks judge. Undefined when the session does not exist. */
  journalSinceEpoch(): { scenario: string; entries: JournalEntry[] } | undefined {
    const record = this.record();
    if (!record) return undefined;
    const epoch = Number(this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'epoch'").toArray()[0]?.v ?? "0");
    return { scenario: record.scenario, entries: this.journal.query({ sinceSeq: epoch, order: "asc" }).entries };
  }

  /** The live journal as SSE: every entry after `sinceSeq`, then each new one as it is recorded. Undefined when the session does not exist. */
  journalStream(sinceSeq: number): ReadableStream<Uint8Array> | undefined {
    if (!this.record()) return undefined;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    const send = (entry: JournalEntry) => {
      writer.write(encoder.encode(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`)).catch(() => this.listeners.delete(send));
    };
    writer.write(encoder.encode(": faultline journal\n\n")).catch(() => undefined);
    for (const entry of this.journal.query({ sinceSeq, order: "asc" }).entries) send(entry);
    this.listeners.add(send);
    writer.closed.catch(() => undefined).finally(() => this.listeners.delete(send));
    return readable;
  }

  private markEpoch(): void {
    const last = this.sql.exec<{ m: number | null }>("SELECT MAX(seq) AS m FROM journal").one().m ?? 0;
    this.sql.exec("INSERT OR REPLACE INTO config (k, v) VALUES ('epoch', ?)", String(last));
  }

  // ---- typed RPC methods used by the API routes ----

  /** Creates the session unless it exists; returns the stored record and whether it was new. */
  create(record: SessionRecord): { record: SessionRecord; created: boolean } {
    const existing = this.record();
    if (existing) return { record: existing, created: false };
    if (this.erased) this.openStorage();
    this.sql.exec("INSERT INTO config (k, v) VALUES ('session', ?)", JSON.stringify(record));
    return { record, created: true };
  }

  view(): SessionView | undefined {
    const record = this.record();
    if (!record) return undefined;
    const counters: Record<string, number> = {};
    for (const row of this.sql.exec<{ k: string; n: number }>("SELECT k, n FROM counters ORDER BY k")) counters[row.k] = row.n;
    const mcpSessions = this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM mcp_sessions WHERE ended = 0").one().c;
    return { ...record, counters, mcpSessions };
  }

  /** Changes the scenario; it applies from the next request, with the counters reset. */
  setScenario(scenario: string, params: Record<string, unknown>): SessionView | undefined {
    const record = this.record();
    if (!record) return undefined;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("UPDATE config SET v = ? WHERE k = 'session'", JSON.stringify({ ...record, scenario, params }));
      this.sql.exec("DELETE FROM counters");
      this.markEpoch();
    });
    return this.view();
  }

  /** Clears counters, MCP sessions and pending interactions; keeps the scenario. */
  reset(): SessionView | undefined {
    if (!this.record()) return undefined;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM counters");
      this.sql.exec("DELETE FROM mcp_sessions");
      this.sql.exec("DELETE FROM resumable");
      this.markEpoch();
    });
    this.live.forget();
    return this.view();
  }

  /** Erases every byte of the session. */
  async erase(): Promise<boolean> {
    const existed = this.record() !== undefined;
    this.live.forget();
    await this.ctx.storage.deleteAll();
    // No schema is written back: an erased session leaves no file; create() makes the tables again if the id is reused.
    this.erased = true;
    this.live = new LiveSession(this.ctx);
    return existed;
  }

  // ---- the MCP endpoint ----

  override async fetch(request: Request): Promise<Response> {
    const started = Date.now();
    const record = this.record() ?? (await this.createDefault());
    if (!record) {
      const id = this.ctx.id.name ?? "";
      const hint = `Create it with POST /api/sessions and the body {"id": ${JSON.stringify(id)}, "scenario": "baseline"} (any scenario), or use /mcp, the default session`;
      return mcpEndpointError(404, `Session not found: no session has the id '${id}'. ${hint}`, { id });
    }
    const scenario = findScenario(record.scenario);
    if (!scenario) return mcpEndpointError(409, `Scenario '${record.scenario}' no longer exists: choose another with PUT /api/sessions/${record.id}/scenario`);
    const handled = await handleMcp(request, this.live, { scenario, params: record.params }, Deadline.fromVar(started, this.env.FAULTLINE_MAX_RESPONSE_SECONDS));
    return journalled(request, handled, {
      started,
      scenario: scenario.id,
      bodyCap: positive(this.env.JOURNAL_BODY_CAP, DEFAULT_BODY_CAP),
      keepClientIp: String(this.env.JOURNAL_KEEP_CLIENT_IP) === "true",
      clientInfoFor: (id) => this.live.clientInfo(id),
      record: (entry) => {
        const stored = this.journal.append(entry, Date.now());
        for (const listener of this.listeners) listener(stored);
        return stored;
      },
      waitUntil: (promise) => this.ctx.waitUntil(promise),
    });
  }

  /**
   * The `default` session comes into being on its first MCP request, so a client pointed at /mcp works with no
   * set-up; doing it here keeps every later request to one Durable Object call.
   */
  private async createDefault(): Promise<SessionRecord | undefined> {
    if (this.ctx.id.name !== DEFAULT_SESSION_ID) return undefined;
    const { record } = this.create(defaultSessionRecord());
    await indexStub(this.env).put({ id: record.id, scenario: record.scenario, createdAt: record.createdAt });
    return record;
  }

  private record(): SessionRecord | undefined {
    if (this.erased) return undefined;
    const row = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'session'").toArray()[0];
    return row ? (JSON.parse(row.v) as SessionRecord) : undefined;
  }
}

/** A positive number from an env var, or the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A non-2xx answer on an MCP endpoint carries a JSON-RPC error, like every other (no request id can be known here). */
function mcpEndpointError(status: number, message: string, data?: unknown): Response {
  return jsonResponse(status, errorMessage(undefined, ErrorCode.InvalidRequest, message, data));
}
