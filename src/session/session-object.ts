import { DurableObject } from "cloudflare:workers";
import { findScenario } from "../../scenarios/index.ts";
import { handleMcp } from "../mcp/endpoint.ts";
import { DEFAULT_SESSION_ID, defaultSessionRecord, indexStub } from "./access.ts";
import type { McpSessionRow, SessionRuntime } from "../mcp/runtime.ts";
import { importKey } from "../mcp/request-state.ts";
import type { RequestId } from "../mcp/jsonrpc.ts";
import { DEFAULT_BODY_CAP } from "../journal/capture.ts";
import type { JournalEntry } from "../journal/entry.ts";
import { journalled } from "../journal/recorder.ts";
import { DEFAULT_LIVE_LIMITS, liveJournal, MAX_LIVE_STREAMS } from "../journal/live.ts";
import { DEFAULT_RETENTION, JournalStore, type JournalQuery } from "../journal/store.ts";
import { redactNames } from "../journal/redact.ts";
import { type Check, FAMILIES } from "../checks/index.ts";
import { timeline } from "../checks/exchange.ts";
import type { SlimEntry } from "../checks/slim.ts";

/** A session's selection, as stored and as returned by the API (without the URL). */
export interface SessionRecord {
  id: string;
  scenario: string;
  params: Record<string, unknown>;
  createdAt: string;
}

export interface SessionView extends SessionRecord {
  counters: Record<string, number>;
  mcpSessions: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS config (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id TEXT PRIMARY KEY, protocol_version TEXT NOT NULL, capabilities TEXT NOT NULL, client_info TEXT,
  created_at INTEGER NOT NULL, requests INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS resumable (event_id TEXT PRIMARY KEY, message TEXT NOT NULL, created_at INTEGER NOT NULL);
`;

/** One Faultline session: its scenario, counters and MCP state, in SQLite. Every update is one synchronous statement. */
export class SessionObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly waiting = new Map<string, (message: unknown) => void>();
  private key: Promise<CryptoKey> | undefined;
  private journal: JournalStore;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();
  private liveStreams = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
    this.journal = this.openJournal();
  }

  /** Creates the journal's tables when missing; after deleteAll() they must be created again. */
  private openJournal(): JournalStore {
    return new JournalStore(this.sql, {
      maxEntries: positive(this.env.JOURNAL_MAX_ENTRIES, DEFAULT_RETENTION.maxEntries),
      maxAgeMs: positive(this.env.JOURNAL_MAX_AGE_HOURS, DEFAULT_RETENTION.maxAgeMs / 3_600_000) * 3_600_000,
    }, { extraNames: redactNames(this.env.JOURNAL_REDACT_NAMES) });
  }

  // ---- the journal ----

  /** Matching entries; undefined when the session does not exist. */
  journalPage(query: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } | undefined {
    return this.record() ? this.journal.query(query) : undefined;
  }

  /**
   * The live journal as SSE (see liveJournal): "busy" when MAX_LIVE_STREAMS are open already, undefined when the
   * session does not exist.
   */
  journalStream(sinceSeq: number): ReadableStream<Uint8Array> | "busy" | undefined {
    if (!this.record()) return undefined;
    if (this.liveStreams >= MAX_LIVE_STREAMS) return "busy";
    this.liveStreams++;
    const source = {
      page: (after: number, limit: number) => this.journal.query({ sinceSeq: after, limit, order: "asc" as const }).entries,
      subscribe: (listener: (entry: JournalEntry) => void) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
    const limits = {
      maxUnreadBytes: positive(this.env.JOURNAL_STREAM_MAX_UNREAD_BYTES, DEFAULT_LIVE_LIMITS.maxUnreadBytes),
      stallMs: positive(this.env.JOURNAL_STREAM_STALL_SECONDS, DEFAULT_LIVE_LIMITS.stallMs / 1000) * 1000,
    };
    return liveJournal(source, sinceSeq, limits, () => this.liveStreams--);
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
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    return this.view();
  }

  /** Erases every byte of the session. */
  async erase(): Promise<boolean> {
    const existed = this.record() !== undefined;
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    this.key = undefined;
    await this.ctx.storage.deleteAll();
    this.sql.exec(SCHEMA);
    this.journal = this.openJournal();
    return existed;
  }

  // ---- the MCP endpoint ----

  override async fetch(request: Request): Promise<Response> {
    const record = this.record() ?? (await this.createDefault());
    if (!record) return Response.json({ error: { code: "session_not_found", message: "No such session" } }, { status: 404 });
    const scenario = findScenario(record.scenario);
    if (!scenario) return Response.json({ error: { code: "scenario_gone", message: `Scenario ${record.scenario} no longer exists` } }, { status: 409 });
    const started = Date.now();
    const handled = await handleMcp(request, this.runtime(scenario, record.params));
    return journalled(request, handled, {
      started,
      scenario: scenario.id,
      bodyCap: positive(this.env.JOURNAL_BODY_CAP, DEFAULT_BODY_CAP),
      keepClientIp: String(this.env.JOURNAL_KEEP_CLIENT_IP) === "true",
      clientInfoFor: (id) => this.clientInfo(id),
      record: (entry) => {
        const stored = this.journal.append(entry, Date.now());
        for (const listener of this.listeners) listener(stored);
        return stored;
      },
      waitUntil: (promise) => this.ctx.waitUntil(promise),
    });
  }

  private runtime(scenario: NonNullable<ReturnType<typeof findScenario>>, params: Record<string, unknown>): SessionRuntime {
    return {
      scenario,
      params,
      count: (facts) => this.count(facts),
      tally: (key) => this.bump(key),
      peek: (key) => this.sql.exec<{ n: number }>("SELECT n FROM counters WHERE k = ?", key).toArray()[0]?.n ?? 0,
      createMcpSession: (id, version, capabilities, clientInfo) => {
        this.sql.exec(
          "INSERT INTO mcp_sessions (id, protocol_version, capabilities, client_info, created_at) VALUES (?, ?, ?, ?, ?)",
          id, version, JSON.stringify(capabilities), JSON.stringify(clientInfo ?? null), Date.now(),
        );
      },
      getMcpSession: (id) => this.mcpSession(id),
      endMcpSession: (id) => this.sql.exec("UPDATE mcp_sessions SET ended = 1 WHERE id = ? AND ended = 0", id).rowsWritten > 0,
      stateKey: () => this.stateKey(),
      waitForClient: (id, timeoutMs) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => {
            this.waiting.delete(id);
            resolve(undefined);
          }, timeoutMs);
          this.waiting.set(id, (message) => {
            clearTimeout(timer);
            this.waiting.delete(id);
            resolve(message);
          });
        }),
      deliverToServer: (id: RequestId, message) => {
        const resolve = this.waiting.get(String(id));
        resolve?.(message);
        return resolve !== undefined;
      },
      keepForResume: (eventId, message) => {
        this.sql.exec("INSERT OR REPLACE INTO resumable (event_id, message, created_at) VALUES (?, ?, ?)", eventId, JSON.stringify(message), Date.now());
      },
      takeResumed: (eventId) => {
        const row = this.sql.exec<{ message: string }>("DELETE FROM resumable WHERE event_id = ? RETURNING message", eventId).toArray()[0];
        return row ? (JSON.parse(row.message) as Record<string, unknown>) : undefined;
      },
      waitUntil: (promise) => this.ctx.waitUntil(promise),
      now: () => Date.now(),
    };
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

  private clientInfo(mcpSessionId: string): Record<string, unknown> | undefined {
    const row = this.sql.exec<{ client_info: string | null }>("SELECT client_info FROM mcp_sessions WHERE id = ?", mcpSessionId).toArray()[0];
    const info = row?.client_info ? JSON.parse(row.client_info) : undefined;
    return info && typeof info === "object" ? info : undefined;
  }

  private record(): SessionRecord | undefined {
    const row = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'session'").toArray()[0];
    return row ? (JSON.parse(row.v) as SessionRecord) : undefined;
  }

  private bump(key: string): number {
    return this.sql.exec<{ n: number }>("INSERT INTO counters (k, n) VALUES (?, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1 RETURNING n", key).one().n;
  }

  private count(facts: { method?: string; tool?: string; mcpSessionId?: string }) {
    return this.ctx.storage.transactionSync(() => {
      const posts = this.bump("posts");
      const method = facts.method ? this.bump(`method:${facts.method}`) : 0;
      const tool = facts.tool ? this.bump(`tool-calls:${facts.tool}`) : 0;
      const mcpSession = facts.mcpSessionId
        ? (this.sql.exec<{ requests: number }>("UPDATE mcp_sessions SET requests = requests + 1 WHERE id = ? RETURNING requests", facts.mcpSessionId).toArray()[0]?.requests ?? 0)
        : 0;
      return { posts, method, tool, mcpSession };
    });
  }

  private mcpSession(id: string): McpSessionRow | undefined {
    const row = this.sql
      .exec<{ id: string; protocol_version: string; capabilities: string; ended: number }>("SELECT id, protocol_version, capabilities, ended FROM mcp_sessions WHERE id = ?", id)
      .toArray()[0];
    return row ? { id: row.id, protocolVersion: row.protocol_version, clientCapabilities: JSON.parse(row.capabilities), ended: row.ended === 1 } : undefined;
  }

  private stateKey(): Promise<CryptoKey> {
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

  // ---- the checks ----

  /**
   * The checks over the journal since the scenario was last set or reset, judged here where the journal is: the
   * slim projections are read in pages, yielding between pages so the one thread of workerd keeps serving others.
   * Undefined when the session does not exist.
   */
  async checks(): Promise<{ scenario: string; checks: Check[] } | undefined> {
    const record = this.record();
    if (!record) return undefined;
    let after = Number(this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'epoch'").toArray()[0]?.v ?? "0");
    const entries: SlimEntry[] = [];
    for (;;) {
      const page = this.journal.slimPage(after, CHECKS_PAGE);
      entries.push(...page);
      if (page.length < CHECKS_PAGE) break;
      after = page[page.length - 1]!.seq;
      await yieldThread();
    }
    // As runChecks does, one family at a time with a yield between them.
    const all = timeline(entries);
    const checks: Check[] = [];
    for (const family of FAMILIES) {
      checks.push(...family(all));
      await yieldThread();
    }
    return { scenario: record.scenario, checks };
  }
}

/** Projections read per step of checks(). */
const CHECKS_PAGE = 500;

/** Lets other requests run before the next step of a long computation (workerd serves everything from one thread). */
const yieldThread = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A positive number from an env var, or the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
