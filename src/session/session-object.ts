import { DurableObject } from "cloudflare:workers";
import { findScenario } from "../../scenarios/index.ts";
import { asMcpAnswer } from "../wire/response.ts";
import { withShownUpstream } from "../proxy/config.ts";
import { auditMaxLines } from "../base/audit-line.ts";
import { type Check, runChecks } from "../checks/index.ts";
import { type Exercise, exerciseOf } from "../checks/exercise.ts";
import type { JournalEntry } from "../journal/entry.ts";
import { redactNames } from "../journal/redact.ts";
import type { JournalQuery } from "../journal/store.ts";
import type { OAuthEndpoint } from "../oauth/server.ts";
import { serveSessionOAuth, sessionEndpointRequests, sessionGrantEvents } from "../oauth/session.ts";
import type { Recording } from "../recording/exchange.ts";
import { IdleExpiry } from "./idle-expiry.ts";
import { indexStub } from "./index-stub.ts";
import { LiveSession } from "./live-session.ts";
import { McpEntry } from "./mcp-entry.ts";
import { DEFAULT_SESSION_ID, defaultSessionRecord, type SessionRecord, type SessionView } from "./record.ts";
import { changeScenario } from "./scenario-change.ts";
import { openStores, type SessionStores } from "./session-stores.ts";
import { hasTables } from "./storage-format.ts";
import { WriteBehind } from "./write-behind.ts";

/**
 * One Faultline session: its scenario, counters and MCP state, in SQLite, composed of parts that each do one thing:
 * the stores (session-stores.ts: the record, the journal, the recording, over the migrated layout), the MCP endpoint
 * (mcp-entry.ts), the live MCP state (live-session.ts), the write-behind (write-behind.ts), idle expiry
 * (idle-expiry.ts), the scenario change (scenario-change.ts), the checks (src/checks/) and the OAuth server
 * (src/oauth/session.ts). This class only routes each RPC to them.
 *
 * An exchange answered with a body known whole is journalled in the turn after its response (WriteBehind). The
 * journal and the counters are written behind while exchanges overlap: a request's rows wait in memory and are
 * written with the others that came within WRITE_BEHIND_MS (or sooner, past WRITE_BEHIND_MAX_ROWS, or when no
 * exchange is left in flight), so a busy session commits a few hundred times per second instead of once per request.
 * Every read of them journals and writes what waits first; a crash of the process (not a graceful stop) can lose what
 * waited (docs/serving.md).
 */
export class SessionObject extends DurableObject<Env> {
  /** Undefined while the storage is empty (never created, or erased): it must stay so until create(). */
  private parts: SessionStores | undefined;
  private readonly writes = new WriteBehind(() => this.writeWaiting());
  private live: LiveSession;
  private readonly idle: IdleExpiry;
  private readonly mcp: McpEntry;
  /** The journal's and the recording's redaction (JOURNAL_REDACT_NAMES), read once per object, not per request. */
  private readonly redaction = { extraNames: redactNames(this.env.JOURNAL_REDACT_NAMES) };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.live = new LiveSession(ctx, this.writes.soon);
    this.idle = new IdleExpiry(ctx, env, () => this.parts !== undefined);
    this.mcp = new McpEntry({
      ctx,
      env,
      redaction: this.redaction,
      live: () => this.live,
      record: () => this.record(),
      createDefault: () => this.createDefault(),
      stores: () => this.parts!,
      afterResponse: this.writes.afterResponse,
    });
    // An object with empty storage is a session that does not exist (a made-up or deleted id that reached here, e.g.
    // through a still-valid capability URL): it stays empty, with no schema written, until create() makes it.
    // Otherwise its storage is migrated here, once, before any request reads it.
    if (hasTables(ctx.storage.sql)) this.open();
  }

  private open(): SessionStores {
    this.parts = openStores(this.ctx.storage, this.env, this.redaction, this.writes);
    return this.parts;
  }

  /** Writes the counters and journal rows that wait in memory (one implicit transaction: they run in one turn). */
  private writeWaiting(): void {
    if (!this.parts) return;
    this.live.flushCounters();
    this.parts.journal.store.flush();
  }

  /** The session's record; reading it is what every use of the session does, so it also notes the use (idle expiry). */
  private record(): SessionRecord | undefined {
    const record = this.parts?.record.get();
    if (record) this.idle.used(record);
    return record;
  }

  // ---- typed RPC methods used by the API routes ----

  /**
   * Creates the session unless it exists, with (for a replay) the recording it answers from, in one transaction;
   * returns the stored record and whether it was new.
   */
  create(record: SessionRecord, replay?: Recording): { record: SessionRecord; created: boolean } {
    const existing = this.record();
    if (existing) return { record: existing, created: false };
    const parts = this.parts ?? this.open();
    try {
      this.ctx.storage.transactionSync(() => {
        parts.record.insert(record);
        if (replay) parts.recording.load(replay);
      });
    } catch (error) {
      parts.record.forget();
      throw error;
    }
    this.idle.created(record);
    return { record, created: true };
  }

  view(): SessionView | undefined {
    const record = this.record();
    if (!record) return undefined;
    const counters = this.live.allCounters();
    const mcpSessions = this.ctx.storage.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM mcp_sessions WHERE ended = 0").one().c;
    // What is shown of the upstream: its URL with any credential in the query redacted (the record keeps it to call).
    return withShownUpstream({ ...record, counters, mcpSessions });
  }

  /**
   * Changes the scenario, with its params and (for a replay) the recording it answers from: all live together from
   * the next request, with the counters reset, or, when a step fails, none of them (see scenario-change.ts).
   */
  setScenario(scenario: string, params: Record<string, unknown>, replay?: Recording): SessionView | undefined {
    const record = this.record();
    if (!record || !this.parts) return undefined;
    this.writes.flush();
    const { journal, recording } = this.parts;
    changeScenario({ transactionSync: (fn) => this.ctx.storage.transactionSync(fn), record: this.parts.record, counters: this.live, journal, recording }, record, { scenario, params, ...(replay ? { replay } : {}) });
    return this.view();
  }

  /** Clears counters, MCP sessions and pending interactions; keeps the scenario. */
  reset(): SessionView | undefined {
    if (!this.record() || !this.parts) return undefined;
    this.writes.flush();
    const { journal, recording } = this.parts;
    this.ctx.storage.transactionSync(() => {
      this.live.clearCounters();
      this.ctx.storage.sql.exec("DELETE FROM mcp_sessions");
      this.ctx.storage.sql.exec("DELETE FROM resumable");
      this.ctx.storage.sql.exec("DELETE FROM tasks");
      recording.rewind();
      journal.markEpoch();
    });
    this.live.forget();
    return this.view();
  }

  /**
   * Ends every MCP session of this session at once, as a restart of the server would, streams in flight included;
   * the scenario, counters and journal stay. Undefined when the session does not exist.
   */
  expireMcpSessions(): (SessionView & { ended: { mcpSessions: number; streams: number } }) | undefined {
    const view = this.record() && this.parts ? this.live.endAllMcpSessions() : undefined;
    return view ? { ...this.view()!, ended: view } : undefined;
  }

  /** Erases every byte of the session. */
  async erase(): Promise<boolean> {
    const existed = this.parts?.record.get() !== undefined;
    this.writes.settle();
    this.writes.cancel();
    this.parts?.journal.store.discardPending();
    this.parts = undefined;
    this.live.forget();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // No schema is written back: an erased session leaves no file; create() makes the tables again if the id is reused.
    this.live = new LiveSession(this.ctx, this.writes.soon);
    return existed;
  }

  // ---- the journal ----

  /** Matching entries; undefined when the session does not exist. */
  journalPage(query: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } | undefined {
    return this.record() ? this.parts!.journal.page(query) : undefined;
  }

  /** The live journal as SSE: "busy" when too many are open already, undefined when the session does not exist. */
  journalStream(sinceSeq: number): ReadableStream<Uint8Array> | "busy" | undefined {
    return this.record() ? this.parts!.journal.stream(sinceSeq) : undefined;
  }

  /**
   * The checks over the journal since the scenario was last set or reset, judged here where the journal is, yielding
   * between steps so the one thread of workerd keeps serving others. Undefined when the session does not exist.
   */
  async checks(): Promise<{ scenario: string; checks: Check[]; exercise: Exercise } | undefined> {
    const record = this.record();
    if (!record) return undefined;
    const entries = await this.parts!.journal.sinceEpoch(yieldThread);
    const scenario = findScenario(record.scenario);
    const checks = await runChecks(entries, {
      grantsSince: (since) => sessionGrantEvents(this.ctx.storage.sql, scenario, record.params, since),
      endpointRequests: () => sessionEndpointRequests(this.ctx.storage.sql, scenario, record.params),
      pause: yieldThread,
    });
    // Whether the scenario's trouble reached the client at all, so that no check listed and "nothing to judge" differ.
    const reachedBy = scenario?.judging.reachedBy;
    const reach = reachedBy ? { by: reachedBy, present: checks.map((c) => c.id) } : undefined;
    return { scenario: record.scenario, checks, exercise: exerciseOf(entries, scenario?.judging.exercisedBy ?? "fault", reach) };
  }

  // ---- the MCP endpoint and the OAuth server ----

  override async fetch(request: Request): Promise<Response> {
    const finished = this.writes.begin();
    try {
      return asMcpAnswer(await this.mcp.exchange(request, finished));
    } catch (error) {
      finished();
      throw error;
    }
  }

  /** The session's OAuth authorization server and protected-resource metadata (src/oauth/). */
  oauth(request: Request, endpoint: OAuthEndpoint, prefix: string): Promise<Response> {
    const record = this.record();
    return serveSessionOAuth(request, endpoint, prefix, record && findScenario(record.scenario), record?.params ?? {}, this.ctx.storage.sql, this.env);
  }

  /**
   * Makes the `default` session exist when it is addressed through the API or the dashboard before any MCP request
   * (the docs say /mcp is that session, so it should be there to look at); false for any other id that does not exist.
   */
  async ensureDefault(): Promise<boolean> {
    return (this.record() ?? (await this.createDefault())) !== undefined;
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

  // ---- idle expiry ----

  /**
   * The idle alarm: deletes the session (its index entry first, so it stops being found, then every byte of its
   * storage) when it has not been used for the TTL; otherwise idle-expiry.ts sets it again.
   */
  override async alarm(): Promise<void> {
    const record = this.parts?.record.get();
    if (!record || !(await this.idle.idle(record))) return;
    await indexStub(this.env).remove(record.id);
    await this.erase();
    await indexStub(this.env).audit({ at: new Date().toISOString(), who: "system", action: "expire", session: record.id }, auditMaxLines(this.env));
  }

  // ---- recordings (src/recording/) ----

  /** This session's recording, or an uploaded HAR's; undefined when there is none. */
  recordingCopy(): Recording | undefined {
    return this.parts?.recording.recording();
  }

  /** An uploaded HAR's Durable Object: stores its recording. */
  storeUpload(recording: Recording): void {
    (this.parts ?? this.open()).recording.store(recording);
  }

  /** Erases an uploaded HAR; false when there was none. */
  async eraseUpload(): Promise<boolean> {
    const existed = this.parts?.recording.has() === true;
    await this.erase();
    return existed;
  }
}

/** Lets other requests run before the next step of a long computation (workerd serves everything from one thread). */
const yieldThread = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
