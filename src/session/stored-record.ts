import type { SessionRecord } from "./record.ts";
import type { Sql } from "./storage-format.ts";

/**
 * The session's record (its `config` row 'session'), as this instance last read or wrote it: every write goes through
 * the one SessionObject (create, a scenario change, erase), so memory and storage agree, and a request reads no row
 * and parses no JSON for it.
 */
export class StoredRecord {
  private readonly sql: Sql;
  /** Undefined: not read yet. */
  private cache: { record: SessionRecord | undefined } | undefined;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  get(): SessionRecord | undefined {
    if (this.cache) return this.cache.record;
    const row = this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'session'").toArray()[0];
    const record = row ? (JSON.parse(row.v) as SessionRecord) : undefined;
    this.cache = { record };
    return record;
  }

  insert(record: SessionRecord): void {
    this.write(record, "INSERT INTO config (k, v) VALUES ('session', ?)");
  }

  update(record: SessionRecord): void {
    this.write(record, "UPDATE config SET v = ? WHERE k = 'session'");
  }

  /** After a rolled-back transaction: the row is read again. */
  forget(): void {
    this.cache = undefined;
  }

  private write(record: SessionRecord, statement: string): void {
    this.sql.exec(statement, JSON.stringify(record));
    this.cache = { record };
  }
}
