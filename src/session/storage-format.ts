/**
 * The versioned layout each Durable Object class keeps in SQLite. A class's layout is a list of named migrations; its
 * format is how many of them its storage has had, recorded in the object beside its data. An object migrates once,
 * when it wakes (its constructor), before it touches a table, so a newer Faultline started on an older state folder
 * keeps every session and journal entry. The layouts themselves are in layouts.ts.
 */

/** One change to a class's tables. */
export interface Migration {
  /** What it changes, for readers and for the upgrade test's names. */
  readonly name: string;
  readonly up: (sql: Sql) => void;
}

/**
 * A Durable Object class's storage: its migrations in order, never edited once released (a change to any table adds
 * one at the end, which bumps the format). Steps are idempotent (CREATE … IF NOT EXISTS, a column added only when
 * missing): releases before the marker was bumped created some tables without a step, so a recorded format may
 * already hold a later step's tables.
 */
export interface StorageLayout {
  readonly className: string;
  readonly migrations: readonly Migration[];
}

/** The format a layout's migrations bring an object to. */
export const formatOf = (layout: StorageLayout): number => layout.migrations.length;

const MARKER_TABLE = "faultline_storage_format";

/** The part of a Durable Object's storage used here, named structurally so that Node-side tests can run it on node:sqlite. */
export interface Sql {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]): { one(): T; toArray(): T[] };
}
type SqlValue = ArrayBuffer | string | number | null;
export interface ObjectStorage {
  readonly sql: Sql;
  transactionSync<T>(fn: () => T): T;
}

/** Thrown when the state was written by a newer Faultline: reading it could lose what this version does not know. */
export class NewerStorageFormat extends Error {
  readonly found: number;
  constructor(layout: StorageLayout, found: number) {
    super(
      `This state was written by a newer Faultline (${layout.className} storage format ${found}; this version reads up to ${formatOf(layout)}). ` +
        "Run the newer version, or point FAULTLINE_STATE_DIR at another folder.",
    );
    this.found = found;
  }
}

/** Whether the object holds any table of its own (not SQLite's, the runtime's (_cf_*) or the marker). */
export function hasTables(sql: Sql): boolean {
  const row = sql
    .exec<{ n: number }>(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name <> ? AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      MARKER_TABLE,
    )
    .one();
  return row.n > 0;
}

/** The format recorded in the object; undefined when it has no marker (a new object, or state from before markers). */
export function recordedFormat(sql: Sql): number | undefined {
  const marker = sql.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?", MARKER_TABLE).one().n > 0;
  return marker ? sql.exec<{ version: number }>(`SELECT version FROM ${MARKER_TABLE}`).toArray()[0]?.version : undefined;
}

/**
 * Brings the object's storage to the layout's format in one transaction: the steps after the recorded format, then
 * the new marker. State without a marker (a new object, or state written before markers existed) runs every step.
 * Returns the format found: 0 for a new object or unmarked state.
 */
export function migrateStorage(storage: ObjectStorage, layout: StorageLayout): number {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    const found = recordedFormat(sql) ?? 0;
    const target = formatOf(layout);
    if (found > target) throw new NewerStorageFormat(layout, found);
    if (found === target) return found;
    for (const migration of layout.migrations.slice(found)) migration.up(sql);
    sql.exec(`CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (version INTEGER NOT NULL)`);
    sql.exec(`DELETE FROM ${MARKER_TABLE}`);
    sql.exec(`INSERT INTO ${MARKER_TABLE} (version) VALUES (?)`, target);
    return found;
  });
}

/** Adds a column unless the table has it (a step that must hold on storage where an earlier release added it). */
export function addColumn(sql: Sql, table: string, column: string, type: string): void {
  const columns = sql.exec<{ name: string }>(`PRAGMA table_info(${table})`).toArray();
  if (!columns.some((c) => c.name === column)) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}
