import type { JournalEntry, NewJournalEntry } from "./entry.ts";

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
`;

/** The session's journal in its SQLite database. */
export class JournalStore {
  private readonly sql: SqlStorage;
  private readonly limits: RetentionLimits;

  constructor(sql: SqlStorage, limits: RetentionLimits) {
    this.sql = sql;
    this.limits = limits;
    sql.exec(SCHEMA);
  }

  /** Stores an entry, applies retention, and returns it with its sequence number. */
  append(entry: NewJournalEntry, now: number): JournalEntry {
    const seq = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO journal (time_ms, method, outcome, entry) VALUES (?, ?, ?, '') RETURNING seq",
        Date.parse(entry.time),
        entry.rpc.method ?? null,
        entry.verdict?.outcome ?? null,
      )
      .one().seq;
    const stored: JournalEntry = { seq, ...entry };
    this.sql.exec("UPDATE journal SET entry = ? WHERE seq = ?", JSON.stringify(stored), seq);
    this.prune(now);
    return stored;
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

  count(): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM journal").one().c;
  }

  clear(): void {
    this.sql.exec("DELETE FROM journal");
  }
}
