import { clientKey, retryOrigin, type WireAttempt } from "./retry-origin.ts";
import { callDigests, type SlimEntry, slimEntry, type StoredParses } from "./slim.ts";
import { OUTCOMES, type Outcome } from "../classify/index.ts";
import { type JournalEntry, type NewJournalEntry, TRUNCATION_MARKER } from "./entry.ts";
import { boundedNames } from "./stored-names.ts";
import { type ParsedBody, type RedactOptions, redactBody, redactCapabilitiesIn, redactHeaders } from "./redact.ts";

export interface RetentionLimits {
  /** Most exchanges kept per session; the oldest go first. */
  maxEntries: number;
  /** Oldest exchange kept, in milliseconds. */
  maxAgeMs: number;
}

export const DEFAULT_RETENTION: RetentionLimits = { maxEntries: 10_000, maxAgeMs: 7 * 24 * 3_600_000 };

export interface JournalQuery {
  method?: string;
  outcome?: string;
  /** Only entries with seq greater than this. */
  sinceSeq?: number;
  /** Page size; without it every matching entry comes back. */
  limit?: number;
  order: "asc" | "desc";
}

/**
 * The journal's tables as the first storage format made them. The session's migrations (src/session/layouts.ts)
 * create them and add the later columns (`slim`, `call_key`, `attempt`); a JournalStore only opens them.
 */
export const JOURNAL_TABLES = `
CREATE TABLE IF NOT EXISTS journal (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time_ms INTEGER NOT NULL,
  method TEXT,
  outcome TEXT,
  entry TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS journal_time ON journal (time_ms);
CREATE TABLE IF NOT EXISTS journal_key (k TEXT NOT NULL);
`;

/** The parses of a new entry's bodies the pipeline made already (the request's, from the read stage): see ParsedBody. */
export interface EntryParses {
  request?: ParsedBody;
  response?: ParsedBody;
}

/**
 * An entry with its credentials redacted: headers, JSON body fields with secret-like names, credential-like values,
 * capability secrets. Each body is parsed at most once, not at all when `parsed` has it; the redacted parses are
 * returned for the checks' projection.
 */
export function redactEntry(entry: NewJournalEntry, options: RedactOptions, parsed: EntryParses = {}): { entry: NewJournalEntry; parsed: StoredParses } {
  const { request, response } = entry;
  // A cut body is no whole JSON any more: its parse (of the whole text) does not describe it.
  const requestBody = redactBody(request.body.text, options, request.body.truncated ? null : parsed.request);
  const responseBody = redactBody(response.body.text, options, response.body.truncated || response.sseEvents ? null : parsed.response);
  const events = response.sseEvents?.map((e) => redactBody(e.data, options, e.data.endsWith(TRUNCATION_MARKER) ? null : undefined));
  const { verdict, fault, proxied } = entry;
  return {
    entry: {
      ...entry,
      ...(verdict ? { verdict: redactCapabilitiesIn(verdict) } : {}),
      ...(fault ? { fault: redactCapabilitiesIn(fault) } : {}),
      ...(proxied ? { proxied: redactCapabilitiesIn(proxied) } : {}),
      request: { ...request, headers: redactHeaders(request.headers, options), body: { ...request.body, text: requestBody.text } },
      response: {
        ...response,
        headers: redactHeaders(response.headers, options),
        body: { ...response.body, text: responseBody.text },
        ...(response.sseEvents ? { sseEvents: response.sseEvents.map((e, i) => ({ ...e, data: events![i]!.text })) } : {}),
      },
    },
    parsed: { request: requestBody.parsed, response: responseBody.parsed, ...(events ? { events: events.map((e) => e.parsed) } : {}) },
  };
}

/** What the wire shows of an entry's sender: its MCP session and clientInfo. */
function wireOf(entry: NewJournalEntry): WireAttempt {
  const client = clientKey(entry.clientInfo);
  return { ...(entry.mcpSessionId !== undefined ? { session: entry.mcpSessionId } : {}), ...(client !== undefined ? { client } : {}) };
}

/**
 * The part of a Durable Object's SqlStorage the journal uses, declared here so the store also runs (and is
 * type-checked) on node:sqlite in the Node tests.
 */
export interface JournalSql {
  exec<T extends Record<string, ArrayBuffer | string | number | null>>(query: string, ...bindings: unknown[]): { toArray(): T[]; one(): T };
}

/**
 * Characters of stored entries one page returns at most (at least one entry): a page crosses the Durable Object's RPC,
 * which refuses a message over 32 MiB, so a page of large entries is shortened and the rest follows from its cursor.
 */
export const PAGE_MAX_CHARS = 8 * 1024 * 1024;

/** The rows of a page up to PAGE_MAX_CHARS of entry text; always the first. */
function withinPageBudget<T extends { entry: string }>(rows: T[]): T[] {
  let chars = 0;
  for (let i = 0; i < rows.length; i++) {
    chars += rows[i]!.entry.length;
    if (chars > PAGE_MAX_CHARS && i > 0) return rows.slice(0, i);
  }
  return rows;
}

/** A call's newest attempt as the journal stored it: what a retry of it is judged against. */
interface LastAttempt {
  seq: number;
  outcome: string | null;
  attempt: WireAttempt;
}

/**
 * Bounds on the rows a write-behind store keeps in memory before it writes them without waiting: what a crash of the
 * process can lose, beside the owner's delay (the session object flushes within WRITE_BEHIND_MS of the first row).
 */
export const WRITE_BEHIND_MAX_ROWS = 64;
const WRITE_BEHIND_MAX_CHARS = 1 << 20;

/** Calls whose newest attempt a store keeps in memory (the least recently used go first). */
const REMEMBERED_CALLS = 4_096;

/** The session's journal in its SQLite database, whose tables the session's migrations made (JOURNAL_TABLES). */
export class JournalStore {
  private readonly sql: JournalSql;
  private readonly limits: RetentionLimits;
  private readonly redact: RedactOptions;
  private readonly key: Uint8Array;
  /** The next entry's seq: SQLite's AUTOINCREMENT counter kept here, so an append is one INSERT with its seq known. */
  private nextSeq: number;
  /**
   * Lower bounds of the oldest kept entry's seq and time: retention deletes only when one of them says a limit is
   * passed, so an append costs no DELETE until then. Exact after a prune by age, otherwise never above the truth.
   */
  private oldestSeq: number;
  private oldestTime: number;
  /**
   * The newest attempt at each call this instance has looked up or appended, so a client that repeats its calls
   * (every retry does) costs no SELECT per request. Bounded; a key not here is looked up in SQLite.
   */
  private readonly lastAttempts = new Map<string, LastAttempt | null>();

  /**
   * Write-behind (when `flushSoon` is given): appended rows wait here, in seq order, until flush(), which the owner
   * calls soon after it is told, and which every read and the size bounds below call first. Without it, an append
   * writes at once.
   */
  private readonly flushSoon: (() => void) | undefined;
  private pending: unknown[][] = [];
  private pendingChars = 0;

  constructor(sql: JournalSql, limits: RetentionLimits, redact: RedactOptions = {}, flushSoon?: () => void) {
    this.sql = sql;
    this.limits = limits;
    this.redact = redact;
    this.flushSoon = flushSoon;
    this.key = this.digestKey();
    // sqlite_sequence keeps the highest seq ever given, also after its entry was deleted, so seqs are never reused.
    const given = sql.exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'journal'").toArray()[0]?.seq ?? 0;
    this.nextSeq = given + 1;
    this.oldestSeq = this.nextSeq;
    this.oldestTime = Infinity;
    this.findOldest();
  }

  private findOldest(): void {
    // Two subqueries, not one SELECT of both: SQLite answers a lone MIN() from an index, two in one SELECT by a scan.
    const row = this.sql.exec<{ s: number | null; t: number | null }>("SELECT (SELECT MIN(seq) FROM journal) AS s, (SELECT MIN(time_ms) FROM journal) AS t").one();
    this.oldestSeq = row.s ?? this.nextSeq;
    this.oldestTime = row.t ?? Infinity;
  }

  /** The session's key for call digests, made on first use. */
  private digestKey(): Uint8Array {
    let hex = this.sql.exec<{ k: string }>("SELECT k FROM journal_key").toArray()[0]?.k;
    if (!hex) {
      hex = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
      this.sql.exec("INSERT INTO journal_key (k) VALUES (?)", hex);
    }
    return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
  }

  /**
   * Stores an entry (one INSERT, now or at the next flush), applies retention, and returns it with its sequence
   * number. The call digests are taken from the bodies as sent; everything stored (the entry and the checks'
   * projection of it) is redacted, and every name in it bounded first (boundedNames). `parsed` holds the bodies the
   * pipeline parsed already, which are not parsed again.
   */
  append(whole: NewJournalEntry, now: number, parsed: EntryParses = {}): JournalEntry {
    const entry = boundedNames(whole);
    const { callDigest, paramsDigest } = callDigests(entry.request.body, this.key, parsed.request);
    const { entry: redacted, parsed: parses } = redactEntry(entry, this.redact, parsed);
    const callKey = entry.rpc.kind === "request" && callDigest !== undefined ? `${entry.rpc.method}\u0000${callDigest}` : undefined;
    const attempt: WireAttempt = { ...(entry.rpc.id !== undefined ? { id: entry.rpc.id } : {}), ...wireOf(entry) };
    const retry = callKey !== undefined ? this.retryOf(callKey, attempt) : {};
    const seq = this.nextSeq;
    if (callKey !== undefined) this.remember(callKey, { seq, outcome: entry.verdict?.outcome ?? null, attempt });
    const time = Date.parse(entry.time);
    const stored: JournalEntry = { seq, ...redacted, ...(callDigest !== undefined ? { callDigest } : {}), ...retry };
    const json = JSON.stringify(stored);
    const slim = JSON.stringify(slimEntry(stored, paramsDigest, parses));
    const row = [seq, time, entry.rpc.method ?? null, entry.verdict?.outcome ?? null, json, slim, callKey ?? null, callKey !== undefined ? JSON.stringify(attempt) : null];
    this.nextSeq = seq + 1;
    if (time < this.oldestTime) this.oldestTime = time;
    if (!this.flushSoon) {
      this.insert(row);
      this.prune(now);
      return stored;
    }
    this.pending.push(row);
    this.pendingChars += json.length + slim.length;
    if (this.pending.length >= WRITE_BEHIND_MAX_ROWS || this.pendingChars >= WRITE_BEHIND_MAX_CHARS) this.flush(now);
    else if (this.pending.length === 1) this.flushSoon();
    return stored;
  }

  private insert(row: unknown[]): void {
    this.sql.exec("INSERT INTO journal (seq, time_ms, method, outcome, entry, slim, call_key, attempt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ...row);
  }

  /** Writes the rows waiting in memory, in seq order, then applies retention. Every read calls it first. */
  flush(now = Date.now()): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    for (const row of rows) this.insert(row);
    this.prune(now);
  }

  /** Drops the rows waiting in memory (the session's storage is being erased). */
  discardPending(): void {
    this.pending = [];
    this.pendingChars = 0;
  }

  /**
   * The previous attempt at the same call, when it failed (an input_required answer asks for its follow-up, which is
   * no retry): one indexed lookup, so recording stays O(1) whatever the journal holds.
   */
  private retryOf(callKey: string, attempt: WireAttempt): Pick<JournalEntry, "retryOf" | "retryOrigin"> {
    const previous = this.lastAttempt(callKey);
    if (!previous || previous.outcome === null || previous.outcome === "INPUT_REQUIRED" || OUTCOMES[previous.outcome as Outcome]?.success !== false) return {};
    if (previous.outcome === "STREAM_INCOMPLETE" && this.answeredOnResume(previous.seq, callKey, previous.attempt)) return {};
    return { retryOf: previous.seq, retryOrigin: retryOrigin(previous.attempt, attempt) };
  }

  /** The newest stored attempt at a call: from memory, else one indexed lookup (then remembered). */
  private lastAttempt(callKey: string): LastAttempt | undefined {
    const remembered = this.lastAttempts.get(callKey);
    // Retention may have deleted it since (then every older attempt at the call went too).
    if (remembered !== undefined) return remembered !== null && remembered.seq >= this.oldestSeq ? remembered : undefined;
    // No flush first: every waiting row's call was remembered when it was appended, and the waiting rows are the
    // newest few of the REMEMBERED_CALLS remembered, so a call not in memory has no waiting row.
    const row = this.sql
      .exec<{ seq: number; outcome: string | null; attempt: string }>("SELECT seq, outcome, attempt FROM journal WHERE call_key = ? ORDER BY seq DESC LIMIT 1", callKey)
      .toArray()[0];
    const found = row ? { seq: row.seq, outcome: row.outcome, attempt: JSON.parse(row.attempt) as WireAttempt } : undefined;
    this.remember(callKey, found ?? null);
    return found;
  }

  private remember(callKey: string, last: LastAttempt | null): void {
    this.lastAttempts.delete(callKey);
    if (this.lastAttempts.size >= REMEMBERED_CALLS) this.lastAttempts.delete(this.lastAttempts.keys().next().value!);
    this.lastAttempts.set(callKey, last);
  }

  /**
   * Whether a GET that resumed the attempt's cut stream (Last-Event-ID; the pipeline gives it the call's method and id)
   * delivered a successful answer: then the call was answered, and a later one is no retry of it. Looked up only after
   * a cut stream, among the entries since it.
   */
  private answeredOnResume(seq: number, callKey: string, attempt: WireAttempt): boolean {
    this.flush();
    const rows = this.sql.exec<{ outcome: string | null }>(
      "SELECT outcome FROM journal WHERE seq > ? AND method = ? AND call_key IS NULL AND json_extract(entry, '$.request.method') = 'GET' AND json_extract(entry, '$.rpc.id') = ? AND ifnull(json_extract(entry, '$.mcpSessionId'), '') = ? LIMIT 1",
      seq, callKey.slice(0, callKey.indexOf("\u0000")), attempt.id ?? null, attempt.session ?? "",
    ).toArray();
    return rows.some((r) => r.outcome !== null && OUTCOMES[r.outcome as Outcome]?.success === true);
  }

  /** Retention after an append: a DELETE only when the in-memory bounds say a limit is passed. */
  private prune(now: number): void {
    const keepFrom = this.nextSeq - this.limits.maxEntries;
    if (keepFrom > this.oldestSeq) {
      this.sql.exec("DELETE FROM journal WHERE seq < ?", keepFrom);
      this.oldestSeq = keepFrom;
    }
    const cutoff = now - this.limits.maxAgeMs;
    if (this.oldestTime < cutoff) {
      this.sql.exec("DELETE FROM journal WHERE time_ms < ?", cutoff);
      this.findOldest();
      // By time, not by seq: a remembered attempt above the oldest seq kept may have gone (a long stream is stored
      // after later calls), so memory starts again from SQLite.
      this.lastAttempts.clear();
    }
  }

  query(q: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } {
    this.flush();
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (q.method) where.push("method = ?"), args.push(q.method);
    if (q.outcome) where.push("outcome = ?"), args.push(q.outcome);
    if (q.sinceSeq !== undefined) where.push(q.order === "asc" ? "seq > ?" : "seq < ?"), args.push(q.sinceSeq);
    // One row beyond the page tells whether there is a next one.
    if (q.limit !== undefined) args.push(q.limit + 1);
    const sql = `SELECT entry FROM journal ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq ${q.order === "asc" ? "ASC" : "DESC"}${q.limit !== undefined ? " LIMIT ?" : ""}`;
    const rows = this.sql.exec<{ entry: string }>(sql, ...args).toArray();
    const kept = withinPageBudget(rows.slice(0, q.limit));
    const entries = kept.map((r) => JSON.parse(r.entry) as JournalEntry);
    const last = entries.at(-1);
    return kept.length < rows.length && last ? { entries, nextSeq: last.seq } : { entries };
  }

  /** Up to `limit` projections for the checks with seq greater than `afterSeq`, oldest first. */
  slimPage(afterSeq: number, limit: number): SlimEntry[] {
    this.flush();
    return this.sql
      .exec<{ slim: string | null; entry: string }>("SELECT slim, CASE WHEN slim IS NULL THEN entry END AS entry FROM journal WHERE seq > ? ORDER BY seq LIMIT ?", afterSeq, limit)
      .toArray()
      .map((r) => (r.slim !== null ? (JSON.parse(r.slim) as SlimEntry) : slimEntry(JSON.parse(r.entry) as JournalEntry, undefined)));
  }

  count(): number {
    this.flush();
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM journal").one().c;
  }

  clear(): void {
    this.discardPending();
    this.sql.exec("DELETE FROM journal");
    this.lastAttempts.clear();
    this.oldestSeq = this.nextSeq;
    this.oldestTime = Infinity;
  }
}
