import { DurableObject } from "cloudflare:workers";
import { findScenario } from "../../scenarios/index.ts";
import { migrateStorage } from "./storage-format.ts";
import { publicOrigin } from "../base/public-origin.ts";
import { DEFAULT_BODY_CAP } from "../journal/capture.ts";
import type { JournalEntry } from "../journal/entry.ts";
import { journalled } from "../journal/recorder.ts";
import { DEFAULT_LIVE_LIMITS, liveJournal, MAX_LIVE_STREAMS } from "../journal/live.ts";
import { DEFAULT_RETENTION, JournalStore, type JournalQuery } from "../journal/store.ts";
import { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage } from "../wire/jsonrpc.ts";
import { handleMcp } from "../mcp/pipeline.ts";
import { jsonResponse } from "../wire/response.ts";
import { LiveSession } from "./live-session.ts";
import { DEFAULT_SESSION_ID, defaultSessionRecord, type SessionRecord, type SessionView } from "./record.ts";
import { indexStub } from "./index-stub.ts";
import { redactNames } from "../journal/redact.ts";
import { type Check, FAMILIES } from "../checks/index.ts";
import { timeline } from "../checks/exchange.ts";
import type { SlimEntry } from "../journal/slim.ts";
import { authChecks } from "../checks/auth.ts";
import type { OAuthEndpoint } from "../oauth/server.ts";
import { serveSessionOAuth, sessionBearer, sessionGrantEvents } from "../oauth/session.ts";
import { alarmDecision, sessionTtlMs, stampGapMs } from "./idle-ttl.ts";
import { auditMaxLines } from "../base/audit-line.ts";
import type { Recording } from "../recording/exchange.ts";
import { recordHandled } from "../recording/recorder.ts";
import { answerSource } from "./answer-source.ts";
import { RecordingStore } from "../recording/store.ts";
import { TASKS_SCHEMA } from "./task-store.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS config (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id TEXT PRIMARY KEY, protocol_version TEXT NOT NULL, capabilities TEXT NOT NULL, client_info TEXT,
  created_at INTEGER NOT NULL, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS resumable (event_id TEXT PRIMARY KEY, message TEXT NOT NULL, created_at INTEGER NOT NULL);
`;

/**
 * One Faultline session: its scenario, counters and MCP state, in SQLite. The journal and the counters are written
 * behind while exchanges overlap: a request's rows wait in memory and are written with the others that came within
 * WRITE_BEHIND_MS (or sooner, past WRITE_BEHIND_MAX_ROWS, or when no exchange is left in flight), so a busy session
 * commits a few hundred times per second instead of once per request. Every read of them writes what waits first; a
 * crash of the process (not a graceful stop) can lose what waited (docs/serving.md).
 */
export class SessionObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private live: LiveSession;
  private journal!: JournalStore;
  private recording!: RecordingStore;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();
  /** The journal's and the recording's redaction (JOURNAL_REDACT_NAMES), read once per object, not per request. */
  private readonly redaction = { extraNames: redactNames(this.env.JOURNAL_REDACT_NAMES) };
  private liveStreams = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.live = new LiveSession(ctx, this.flushSoon);
    // An object with empty storage is a session that does not exist (a made-up or deleted id that reached here, e.g.
    // through a still-valid capability URL): it stays empty, with no schema written, until create() makes it.
    // (workerd keeps tables of its own, named _cf_*, in every object's database.)
    if (this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' LIMIT 1").toArray().length === 0) this.erased = true;
    else this.openStorage();
  }

  /** True after erase() until the next create(): the storage is empty and must stay so. */
  private erased = false;

  private openStorage(): JournalStore {
    migrateStorage(this.ctx.storage);
    this.sql.exec(SCHEMA + TASKS_SCHEMA);
    this.erased = false;
    this.recording = new RecordingStore(this.sql);
    this.journal = this.openJournal();
    return this.journal;
  }

  /** Creates the journal's tables when missing; after deleteAll() they must be created again. */
  private openJournal(): JournalStore {
    return new JournalStore(this.sql, {
      maxEntries: positive(this.env.JOURNAL_MAX_ENTRIES, DEFAULT_RETENTION.maxEntries),
      maxAgeMs: positive(this.env.JOURNAL_MAX_AGE_HOURS, DEFAULT_RETENTION.maxAgeMs / 3_600_000) * 3_600_000,
    }, this.redaction, this.flushSoon);
  }

  // ---- write-behind ----

  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * MCP exchanges begun and not yet journalled. When the last one is, what waits is written at once: a client that
   * calls one request at a time writes each exchange before its response is released (the output gate), and a
   * graceful stop, which lets the exchanges in flight finish, loses nothing. Only while exchanges overlap do rows wait
   * for the timer.
   */
  private inFlight = 0;

  /** Called by the journal and the counters when a first row waits: one timer writes them all. */
  private readonly flushSoon = (): void => {
    this.flushTimer ??= setTimeout(() => this.flush(), WRITE_BEHIND_MS);
  };

  private cancelFlush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  /** Writes the counters and journal rows that wait in memory (one implicit transaction: they run in one turn). */
  private flush(): void {
    this.cancelFlush();
    if (this.erased) return;
    this.live.flushCounters();
    this.journal.flush();
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
    this.journal.flush();
    const last = this.sql.exec<{ m: number | null }>("SELECT MAX(seq) AS m FROM journal").one().m ?? 0;
    this.sql.exec("INSERT OR REPLACE INTO config (k, v) VALUES ('epoch', ?)", String(last));
  }

  // ---- typed RPC methods used by the API routes ----

  /** Creates the session unless it exists; returns the stored record and whether it was new. */
  create(record: SessionRecord): { record: SessionRecord; created: boolean } {
    const existing = this.record();
    if (existing) return { record: existing, created: false };
    if (this.erased) this.openStorage();
    this.storeRecord(record, "INSERT INTO config (k, v) VALUES ('session', ?)");
    this.armIdleAlarm(record);
    return { record, created: true };
  }

  view(): SessionView | undefined {
    const record = this.record();
    if (!record) return undefined;
    const counters = this.live.allCounters();
    const mcpSessions = this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM mcp_sessions WHERE ended = 0").one().c;
    return { ...record, counters, mcpSessions };
  }

  /** Changes the scenario; it applies from the next request, with the counters reset. */
  setScenario(scenario: string, params: Record<string, unknown>): SessionView | undefined {
    const record = this.record();
    if (!record) return undefined;
    this.flush(); // so that a rolled-back transaction leaves storage, which memory is read back from, complete
    try {
      this.ctx.storage.transactionSync(() => {
        this.storeRecord({ ...record, scenario, params }, "UPDATE config SET v = ? WHERE k = 'session'");
        this.live.clearCounters();
        this.markEpoch();
      });
    } catch (error) {
      this.recordCache = undefined; // rolled back: read the row again
      throw error;
    }
    return this.view();
  }

  /** Clears counters, MCP sessions and pending interactions; keeps the scenario. */
  reset(): SessionView | undefined {
    if (!this.record()) return undefined;
    this.flush();
    this.ctx.storage.transactionSync(() => {
      this.live.clearCounters();
      this.sql.exec("DELETE FROM mcp_sessions");
      this.sql.exec("DELETE FROM resumable");
      this.sql.exec("DELETE FROM tasks");
      this.recording.rewind();
      this.markEpoch();
    });
    this.live.forget();
    return this.view();
  }

  /** Erases every byte of the session. */
  async erase(): Promise<boolean> {
    const existed = this.storedRecord() !== undefined;
    this.cancelFlush();
    if (!this.erased) this.journal.discardPending();
    this.live.forget();
    await this.ctx.storage.deleteAlarm();
    this.recordCache = undefined;
    await this.ctx.storage.deleteAll();
    // No schema is written back: an erased session leaves no file; create() makes the tables again if the id is reused.
    this.erased = true;
    this.live = new LiveSession(this.ctx, this.flushSoon);
    return existed;
  }

  // ---- the MCP endpoint ----

  override async fetch(request: Request): Promise<Response> {
    this.inFlight++;
    let settled = false;
    const finished = () => {
      if (settled) return;
      settled = true;
      if (--this.inFlight === 0) this.flush();
    };
    try {
      return await this.exchange(request, finished);
    } catch (error) {
      finished();
      throw error;
    }
  }

  /** One exchange on the MCP endpoint; `finished` is called once it is journalled (or when nothing will be). */
  private async exchange(request: Request, finished: () => void): Promise<Response> {
    const started = Date.now();
    const record = this.record() ?? (await this.createDefault());
    if (!record) {
      const id = this.ctx.id.name ?? "";
      const hint = `Create it with POST /api/sessions and the body {"id": ${JSON.stringify(id)}, "scenario": "baseline"} (any scenario), or use /mcp, the default session`;
      finished();
      return mcpEndpointError(404, `Session not found: no session has the id '${id}'. ${hint}`, { id });
    }
    const scenario = findScenario(record.scenario);
    if (!scenario) return finished(), mcpEndpointError(409, `Scenario '${record.scenario}' no longer exists: choose another with PUT /api/sessions/${record.id}/scenario`);
    const bearer = sessionBearer(request, scenario, this.sql, this.env);
    const { active, source } = answerSource(record, { scenario, params: record.params, ...(bearer ? { bearer } : {}) }, this.recording);
    const handled = await handleMcp(request, this.live, active, Deadline.fromVar(started, this.env.FAULTLINE_MAX_RESPONSE_SECONDS), publicOrigin(request, this.env), source);
    const answered = record.record ? recordHandled(this.recording, request, handled, started, (promise) => this.ctx.waitUntil(promise), this.redaction) : handled;
    return journalled(request, answered, {
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
      finished,
    });
  }

  /** The session's OAuth authorization server and protected-resource metadata (src/oauth/). */
  oauth(request: Request, endpoint: OAuthEndpoint, prefix: string): Promise<Response> {
    const record = this.record();
    return serveSessionOAuth(request, endpoint, prefix, record && findScenario(record.scenario), record?.params ?? {}, this.sql, this.env);
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

  /** The session's record; reading it is what every use of the session does, so it also notes the use (idle expiry). */
  private record(): SessionRecord | undefined {
    const record = this.storedRecord();
    if (record) this.used(record);
    return record;
  }

  /**
   * The stored record as this instance last read or wrote it: every write goes through this object (create,
   * setScenario, erase), so memory and storage agree, and a request reads no row and parses no JSON for it.
   * Undefined: not read yet.
   */
  private recordCache: { record: SessionRecord | undefined } | undefined;

  private storedRecord(): SessionRecord | undefined {
    if (this.erased) return undefined;
    if (this.recordCache) return this.recordCache.record;
    const row = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'session'").toArray()[0];
    const record = row ? (JSON.parse(row.v) as SessionRecord) : undefined;
    this.recordCache = { record };
    return record;
  }

  private storeRecord(record: SessionRecord, statement: string): void {
    this.sql.exec(statement, JSON.stringify(record));
    this.recordCache = { record };
  }

  // ---- idle expiry (FAULTLINE_SESSION_TTL_HOURS; see idle-ttl.ts) ----

  /** The last use this instance saw; exact, but lost when the object is evicted, hence the stored stamp too. */
  private lastUseMs: number | undefined;
  /** The stored last-use stamp as this instance last wrote or read it. */
  private stampMs: number | undefined;
  /** Whether this instance made sure the alarm is set (sessions stored before idle expiry existed have none). */
  private alarmChecked = false;

  /**
   * Notes a use. Memory always; the stored stamp only when it lags by more than stampGapMs, so most requests write
   * nothing; the alarm is not moved (it re-arms itself from the last use when it fires).
   */
  private used(record: SessionRecord): void {
    const now = Date.now();
    this.lastUseMs = now;
    if (!expires(record)) return;
    const ttl = sessionTtlMs(this.env);
    this.stampMs ??= this.readStamp();
    if (this.stampMs === undefined || now - this.stampMs >= stampGapMs(ttl)) {
      this.sql.exec("INSERT OR REPLACE INTO config (k, v) VALUES ('lastUse', ?)", String(now));
      this.stampMs = now;
    }
    if (!this.alarmChecked) {
      this.alarmChecked = true;
      void this.ctx.storage.getAlarm().then((at) => {
        if (at === null && !this.erased) return this.ctx.storage.setAlarm(now + ttl);
      });
    }
  }

  private readStamp(): number | undefined {
    const v = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'lastUse'").toArray()[0]?.v;
    return v === undefined ? undefined : Number(v);
  }

  /** A new session that can expire gets its alarm one TTL from now, and its first stamp. */
  private armIdleAlarm(record: SessionRecord): void {
    this.stampMs = undefined;
    this.alarmChecked = true;
    this.used(record);
    if (expires(record)) void this.ctx.storage.setAlarm(Date.now() + sessionTtlMs(this.env));
  }

  /**
   * The idle alarm: deletes the session (its index entry first, so it stops being found, then every byte of its
   * storage) when it has not been used for the TTL; otherwise sets itself again for one TTL after the last use.
   */
  override async alarm(): Promise<void> {
    const record = this.storedRecord();
    if (!record || !expires(record)) return;
    const decision = alarmDecision(Date.now(), sessionTtlMs(this.env), {
      inMemoryMs: this.lastUseMs,
      storedMs: this.readStamp(),
      createdMs: Date.parse(record.createdAt),
    });
    if (!decision.expire) return this.ctx.storage.setAlarm(decision.nextAlarmMs);
    await indexStub(this.env).remove(record.id);
    await this.erase();
    await indexStub(this.env).audit({ at: new Date().toISOString(), who: "system", action: "expire", session: record.id }, auditMaxLines(this.env));
  }

  // ---- recordings (src/recording/) ----

  /** This session's recording, or an uploaded HAR's; undefined when there is none. */
  recordingCopy(): Recording | undefined {
    return this.erased ? undefined : this.recording.recording();
  }

  /** A replay session: the recording it answers from. */
  loadReplay(recording: Recording): void {
    this.recording.load(recording);
  }

  /** An uploaded HAR's Durable Object: stores its recording. */
  storeUpload(recording: Recording): void {
    if (this.erased) this.openStorage();
    this.recording.store(recording);
  }

  /** Erases an uploaded HAR; false when there was none. */
  async eraseUpload(): Promise<boolean> {
    const existed = !this.erased && this.recording.has();
    await this.erase();
    return existed;
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
    checks.push(...authChecks(all, sessionGrantEvents(this.sql, findScenario(record.scenario), record.params, all[0]?.start ?? Date.now())));
    return { scenario: record.scenario, checks };
  }
}

/** Whether the idle alarm may delete a session: not the `default` session, not one created with `keep: true`. */
function expires(record: SessionRecord): boolean {
  return record.id !== DEFAULT_SESSION_ID && record.keep !== true;
}

/** How long a journal row or a counter waits in memory before it is written (see the class comment). */
const WRITE_BEHIND_MS = 10;

/** Projections read per step of checks(). */
const CHECKS_PAGE = 500;

/** Lets other requests run before the next step of a long computation (workerd serves everything from one thread). */
const yieldThread = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A positive number from an env var, or the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A non-2xx answer on an MCP endpoint carries a JSON-RPC error, like every other (no request id can be known here). */
function mcpEndpointError(status: number, message: string, data?: unknown): Response {
  return jsonResponse(status, errorMessage(undefined, ErrorCode.InvalidRequest, message, data));
}
