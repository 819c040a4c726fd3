import { clientKey, retryOrigin, type WireAttempt } from "../checks/retry-origin.ts";
import { callDigests, type SlimEntry, slimEntry } from "../checks/slim.ts";
import { OUTCOMES, type Outcome } from "../classify/index.ts";
import type { JournalEntry, NewJournalEntry } from "./entry.ts";
import { type RedactOptions, redactHeaders, redactText } from "./redact.ts";

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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS journal (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time_ms INTEGER NOT NULL,
  method TEXT,
  outcome TEXT,
  entry TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS journal_time ON journal (time_ms);
CREATE TABLE IF NOT EXISTS journal_key (k TEXT NOT NULL);
`;

/** An entry with its credentials redacted: headers, JSON body fields with secret-like names, credential-like values. */
export function redactEntry(entry: NewJournalEntry, options: RedactOptions): NewJournalEntry {
  const { request, response } = entry;
  return {
    ...entry,
    request: { ...request, headers: redactHeaders(request.headers, options), body: { ...request.body, text: redactText(request.body.text, options) } },
    response: {
      ...response,
      headers: redactHeaders(response.headers, options),
      body: { ...response.body, text: redactText(response.body.text, options) },
      ...(response.sseEvents ? { sseEvents: response.sseEvents.map((e) => ({ ...e, data: redactText(e.data, options) })) } : {}),
    },
  };
}

/** What the wire shows of an entry's sender: its MCP session and clientInfo. */
function wireOf(entry: NewJournalEntry): WireAttempt {
  const client = clientKey(entry.clientInfo);
  return { ...(entry.mcpSessionId !== undefined ? { session: entry.mcpSessionId } : {}), ...(client !== undefined ? { client } : {}) };
}

/** The session's journal in its SQLite database. */
export class JournalStore {
  private readonly sql: SqlStorage;
  private readonly limits: RetentionLimits;
  private readonly redact: RedactOptions;
  private readonly key: Uint8Array;

  constructor(sql: SqlStorage, limits: RetentionLimits, redact: RedactOptions = {}) {
    this.sql = sql;
    this.limits = limits;
    this.redact = redact;
    sql.exec(SCHEMA);
    // The projection the checks read; added to journals created before it existed.
    const columns = new Set(sql.exec<{ name: string }>("PRAGMA table_info(journal)").toArray().map((c) => c.name));
    if (!columns.has("slim")) sql.exec("ALTER TABLE journal ADD COLUMN slim TEXT");
    // The call each request made and what the wire showed of it, so a retry finds its previous attempt in one lookup.
    if (!columns.has("call_key")) sql.exec("ALTER TABLE journal ADD COLUMN call_key TEXT; ALTER TABLE journal ADD COLUMN attempt TEXT");
    sql.exec("CREATE INDEX IF NOT EXISTS journal_call ON journal (call_key, seq)");
    this.key = this.digestKey();
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
   * Stores an entry, applies retention, and returns it with its sequence number. The call digests are taken from the
   * bodies as sent; everything stored (the entry and the checks' projection of it) is redacted.
   */
  append(entry: NewJournalEntry, now: number): JournalEntry {
    const { callDigest, paramsDigest } = callDigests(entry.request.body, this.key);
    const redacted = redactEntry(entry, this.redact);
    const callKey = entry.rpc.kind === "request" && callDigest !== undefined ? `${entry.rpc.method}\u0000${callDigest}` : undefined;
    const attempt: WireAttempt = { ...(entry.rpc.id !== undefined ? { id: entry.rpc.id } : {}), ...wireOf(entry) };
    const retry = callKey !== undefined ? this.retryOf(callKey, attempt) : {};
    const seq = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO journal (time_ms, method, outcome, entry, call_key, attempt) VALUES (?, ?, ?, '', ?, ?) RETURNING seq",
        Date.parse(entry.time),
        entry.rpc.method ?? null,
        entry.verdict?.outcome ?? null,
        callKey ?? null,
        callKey !== undefined ? JSON.stringify(attempt) : null,
      )
      .one().seq;
    const stored: JournalEntry = { seq, ...redacted, ...(callDigest !== undefined ? { callDigest } : {}), ...retry };
    this.sql.exec("UPDATE journal SET entry = ?, slim = ? WHERE seq = ?", JSON.stringify(stored), JSON.stringify(slimEntry(stored, paramsDigest)), seq);
    this.prune(now);
    return stored;
  }

  /**
   * The previous attempt at the same call, when it failed (an input_required answer asks for its follow-up, which is
   * no retry): one indexed lookup, so recording stays O(1) whatever the journal holds.
   */
  private retryOf(callKey: string, attempt: WireAttempt): Pick<JournalEntry, "retryOf" | "retryOrigin"> {
    const previous = this.sql
      .exec<{ seq: number; outcome: string | null; attempt: string }>("SELECT seq, outcome, attempt FROM journal WHERE call_key = ? ORDER BY seq DESC LIMIT 1", callKey)
      .toArray()[0];
    if (!previous || previous.outcome === null || previous.outcome === "INPUT_REQUIRED" || OUTCOMES[previous.outcome as Outcome]?.success !== false) return {};
    const earlier = JSON.parse(previous.attempt) as WireAttempt;
    if (previous.outcome === "STREAM_INCOMPLETE" && this.answeredOnResume(previous.seq, callKey, earlier)) return {};
    return { retryOf: previous.seq, retryOrigin: retryOrigin(earlier, attempt) };
  }

  /**
   * Whether a GET that resumed the attempt's cut stream (Last-Event-ID; the pipeline gives it the call's method and id)
   * delivered a successful answer: then the call was answered, and a later one is no retry of it. Looked up only after
   * a cut stream, among the entries since it.
   */
  private answeredOnResume(seq: number, callKey: string, attempt: WireAttempt): boolean {
    const rows = this.sql.exec<{ outcome: string | null }>(
      "SELECT outcome FROM journal WHERE seq > ? AND method = ? AND call_key IS NULL AND json_extract(entry, '$.request.method') = 'GET' AND json_extract(entry, '$.rpc.id') = ? AND ifnull(json_extract(entry, '$.mcpSessionId'), '') = ? LIMIT 1",
      seq, callKey.slice(0, callKey.indexOf("\u0000")), attempt.id ?? null, attempt.session ?? "",
    ).toArray();
    return rows.some((r) => r.outcome !== null && OUTCOMES[r.outcome as Outcome]?.success === true);
  }

  private prune(now: number): void {
    this.sql.exec("DELETE FROM journal WHERE seq <= (SELECT MAX(seq) FROM journal) - ?", this.limits.maxEntries);
    this.sql.exec("DELETE FROM journal WHERE time_ms < ?", now - this.limits.maxAgeMs);
  }

  query(q: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (q.method) where.push("method = ?"), args.push(q.method);
    if (q.outcome) where.push("outcome = ?"), args.push(q.outcome);
    if (q.sinceSeq !== undefined) where.push(q.order === "asc" ? "seq > ?" : "seq < ?"), args.push(q.sinceSeq);
    // One row beyond the page tells whether there is a next one.
    if (q.limit !== undefined) args.push(q.limit + 1);
    const sql = `SELECT entry FROM journal ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq ${q.order === "asc" ? "ASC" : "DESC"}${q.limit !== undefined ? " LIMIT ?" : ""}`;
    const rows = this.sql.exec<{ entry: string }>(sql, ...args).toArray();
    const entries = rows.slice(0, q.limit).map((r) => JSON.parse(r.entry) as JournalEntry);
    const last = entries.at(-1);
    return q.limit !== undefined && rows.length > q.limit && last ? { entries, nextSeq: last.seq } : { entries };
  }

  /** Up to `limit` projections for the checks with seq greater than `afterSeq`, oldest first. */
  slimPage(afterSeq: number, limit: number): SlimEntry[] {
    return this.sql
      .exec<{ slim: string | null; entry: string }>("SELECT slim, CASE WHEN slim IS NULL THEN entry END AS entry FROM journal WHERE seq > ? ORDER BY seq LIMIT ?", afterSeq, limit)
      .toArray()
      .map((r) => (r.slim !== null ? (JSON.parse(r.slim) as SlimEntry) : slimEntry(JSON.parse(r.entry) as JournalEntry, undefined)));
  }

  count(): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM journal").one().c;
  }

  clear(): void {
    this.sql.exec("DELETE FROM journal");
  }
}
