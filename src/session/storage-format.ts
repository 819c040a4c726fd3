/**
 * The version of the layout Faultline's Durable Objects keep in SQLite, stored in each object beside its data, and the
 * steps that bring an older layout up to date. Every object runs `migrateStorage` once when it starts, before it
 * touches its tables, so a newer Faultline started on an older state folder keeps every session and journal entry.
 */

/**
 * Format 1: the layout of the first release (SessionObject: config, counters, mcp_sessions, resumable and the journal's
 * tables; SessionIndex: sessions). State written before this marker existed is format 1 as well.
 */
export const STORAGE_FORMAT = 1;

const MARKER_TABLE = "faultline_storage_format";

/** The part of a Durable Object's storage used here, named structurally so that Node-side tests can import this module. */
interface Sql {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]): { one(): T; toArray(): T[] };
}
type SqlValue = ArrayBuffer | string | number | null;
interface ObjectStorage {
  readonly sql: Sql;
  transactionSync<T>(fn: () => T): T;
}

/**
 * Step `n` turns format n into format n + 1, in the same transaction that records the new version. A change to any
 * table's shape adds a step here and bumps STORAGE_FORMAT; the upgrade test in test/serve/ shows the data survives.
 */
const STEPS: Readonly<Record<number, (sql: Sql) => void>> = {};

/** Thrown when the state was written by a newer Faultline: reading it could lose what this version does not know. */
export class NewerStorageFormat extends Error {
  readonly found: number;
  constructor(found: number) {
    super(
      `This state was written by a newer Faultline (storage format ${found}; this version reads up to ${STORAGE_FORMAT}). ` +
        "Run the newer version, or point FAULTLINE_STATE_DIR at another folder.",
    );
    this.found = found;
  }
}

/** Any table of this object's own (not SQLite's or the runtime's)? */
function hasTables(sql: Sql): boolean {
  const row = sql
    .exec<{ n: number }>(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name <> ? AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      MARKER_TABLE,
    )
    .one();
  return row.n > 0;
}

/** Brings this object's stored data to STORAGE_FORMAT and records it; returns the format found (undefined: a new object). */
export function migrateStorage(storage: ObjectStorage): number | undefined {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (version INTEGER NOT NULL)`);
    const recorded = sql.exec<{ version: number }>(`SELECT version FROM ${MARKER_TABLE}`).toArray()[0]?.version;
    const found = recorded ?? (hasTables(sql) ? 1 : undefined);
    if (found !== undefined && found > STORAGE_FORMAT) throw new NewerStorageFormat(found);
    for (let version = found ?? STORAGE_FORMAT; version < STORAGE_FORMAT; version++) STEPS[version]!(sql);
    if (recorded !== STORAGE_FORMAT) {
      sql.exec(`DELETE FROM ${MARKER_TABLE}`);
      sql.exec(`INSERT INTO ${MARKER_TABLE} (version) VALUES (?)`, STORAGE_FORMAT);
    }
    return found;
  });
}
