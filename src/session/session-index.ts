import { DurableObject } from "cloudflare:workers";
import { INDEX_LAYOUT } from "./layouts.ts";
import { migrateStorage } from "./storage-format.ts";
import type { AuditEntry, AuditLine } from "../base/audit-line.ts";

export interface IndexEntry {
  id: string;
  scenario: string;
  createdAt: string;
  /** Whether the session forwards to an upstream (proxy mode): fixed at creation. Absent: not known (listed before the column). */
  proxied?: boolean;
}

/** The list of sessions, so they can be enumerated; each session's data lives in its own SessionObject. Also the audit log. */
export class SessionIndex extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // Once, when the object wakes: its tables are INDEX_LAYOUT's, brought up to date from any older format.
    migrateStorage(ctx.storage, INDEX_LAYOUT);
  }

  put(entry: IndexEntry): void {
    const proxied = entry.proxied === undefined ? null : entry.proxied ? 1 : 0;
    this.sql.exec("INSERT OR REPLACE INTO sessions (id, scenario, created_at, proxied) VALUES (?, ?, ?, ?)", entry.id, entry.scenario, entry.createdAt, proxied);
  }

  /**
   * Lists a new session unless the id is taken or `cap` sessions are listed already. The check and the insert are
   * one synchronous call, so concurrent creates cannot both pass the count (a Durable Object runs one call at a time).
   */
  reserve(entry: IndexEntry, cap: number): "reserved" | "exists" | "full" {
    if (this.has(entry.id)) return "exists";
    if (this.count() >= cap) return "full";
    this.put(entry);
    return "reserved";
  }

  /** Whether a session with this id exists: asked before any SessionObject is touched, so a made-up id creates nothing. */
  has(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM sessions WHERE id = ?", id).toArray().length > 0;
  }

  remove(id: string): void {
    this.sql.exec("DELETE FROM sessions WHERE id = ?", id);
  }

  /**
   * One page of sessions, newest first; `after` is the last entry of the previous page (keyset paging, so a page
   * costs its own size whatever the total). `more` tells whether another page follows.
   */
  page(limit: number, after?: { createdAt: string; id: string }): { entries: IndexEntry[]; more: boolean } {
    const rows = (after
      ? this.sql.exec<Row>(
          "SELECT id, scenario, created_at, proxied FROM sessions WHERE created_at < ? OR (created_at = ? AND id > ?) ORDER BY created_at DESC, id LIMIT ?",
          after.createdAt,
          after.createdAt,
          after.id,
          limit + 1,
        )
      : this.sql.exec<Row>("SELECT id, scenario, created_at, proxied FROM sessions ORDER BY created_at DESC, id LIMIT ?", limit + 1)
    ).toArray();
    const entries = rows.slice(0, limit).map((row) => ({ id: row.id, scenario: row.scenario, createdAt: row.created_at, ...(row.proxied === 1 ? { proxied: true } : {}) }));
    return { entries, more: rows.length > limit };
  }

  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sessions").one().n;
  }

  // ---- uploaded HARs ----

  /**
   * Lists an uploaded HAR unless `cap` are listed already: the count and the insert are one call, so concurrent
   * uploads cannot pass the cap. Uploads stored before the list existed are not counted.
   */
  reserveUpload(id: string, createdAt: string, cap: number): "reserved" | "full" {
    if (this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM uploads").one().n >= cap) return "full";
    this.sql.exec("INSERT OR REPLACE INTO uploads (id, created_at) VALUES (?, ?)", id, createdAt);
    return "reserved";
  }

  removeUpload(id: string): void {
    this.sql.exec("DELETE FROM uploads WHERE id = ?", id);
  }

  // ---- the audit log ----

  /** Appends a line and drops the oldest beyond `maxLines`, so the log stays bounded. */
  audit(entry: AuditEntry, maxLines: number): void {
    const seq = this.sql.exec<{ seq: number }>("INSERT INTO audit (line) VALUES (?) RETURNING seq", JSON.stringify(entry)).one().seq;
    this.sql.exec("DELETE FROM audit WHERE seq <= ?", seq - maxLines);
  }

  /** One page of audit lines, newest first; `before` is the seq of the previous page's last line. */
  auditPage(limit: number, before?: number): { lines: AuditLine[]; more: boolean } {
    const rows = this.sql
      .exec<{ seq: number; line: string }>("SELECT seq, line FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?", before ?? Number.MAX_SAFE_INTEGER, limit + 1)
      .toArray();
    const lines = rows.slice(0, limit).map((row) => ({ seq: row.seq, ...(JSON.parse(row.line) as AuditEntry) }));
    return { lines, more: rows.length > limit };
  }
}

type Row = { id: string; scenario: string; created_at: string; proxied: number | null };
