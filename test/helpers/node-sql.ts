import { SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { migrateStorage, type ObjectStorage } from "../../src/session/storage-format.ts";
import type { DatabaseSync } from "node:sqlite";

/**
 * A Durable Object's `ctx.storage.sql` stood in for by node:sqlite, for modules that take it structurally (the
 * journal store, the live session): `exec` returns its rows as `toArray()`, `one()` and by iteration, with the rows a
 * write changed in `rowsWritten`; a script of several statements runs when it has no arguments.
 */
export function sqlOn(db: DatabaseSync) {
  const exec = (query: string, ...bindings: unknown[]) => {
    let rows: Record<string, unknown>[] = [];
    let rowsWritten = 0;
    if (bindings.length === 0 && query.trim().replace(/;\s*$/, "").includes(";")) db.exec(query);
    else if (/^\s*(SELECT|PRAGMA)|RETURNING/i.test(query)) rows = db.prepare(query).all(...(bindings as never[])) as Record<string, unknown>[];
    else rowsWritten = Number(db.prepare(query).run(...(bindings as never[])).changes);
    return {
      rowsWritten,
      toArray: () => rows,
      one: () => {
        if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
        return rows[0];
      },
      [Symbol.iterator]: () => rows[Symbol.iterator](),
    };
  };
  return { exec };
}

/** A Durable Object's `ctx.storage` (its SQL and `transactionSync`) stood in for by node:sqlite. */
export function storageOn(db: DatabaseSync) {
  return {
    sql: sqlOn(db),
    transactionSync<T>(fn: () => T): T {
      db.exec("SAVEPOINT tx");
      try {
        const result = fn();
        db.exec("RELEASE tx");
        return result;
      } catch (error) {
        db.exec("ROLLBACK TO tx");
        db.exec("RELEASE tx");
        throw error;
      }
    },
  };
}

/** The session's SQL on node:sqlite with every table its migrations make (src/session/layouts.ts), as a session has. */
export function migratedSqlOn(db: DatabaseSync) {
  const storage = storageOn(db) as unknown as ObjectStorage;
  migrateStorage(storage, SESSION_LAYOUT);
  return storage.sql;
}
