/** Direct access to the SQLite files `npm run serve` and `npm start` keep under <state dir>/v3/do/, for the upgrade test. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Every Durable Object database of the state folder (not workerd's metadata.sqlite), with its class (the folder is `faultline-<class>`). */
export function objectDatabases(stateDir: string): { path: string; className: string }[] {
  const root = join(stateDir, "v3", "do");
  return readdirSync(root).flatMap((folder) =>
    readdirSync(join(root, folder))
      .filter((file) => file.endsWith(".sqlite") && file !== "metadata.sqlite")
      .map((file) => ({ path: join(root, folder, file), className: folder.replace(/^faultline-/, "") })),
  );
}

/** Runs `fn` on each object database while the server is stopped. */
export function eachDatabase<T>(stateDir: string, fn: (db: DatabaseSync, className: string) => T): T[] {
  return objectDatabases(stateDir).map(({ path, className }) => {
    const db = new DatabaseSync(path);
    try {
      return fn(db, className);
    } finally {
      db.close();
    }
  });
}

/** The storage-format version recorded in one object database; undefined when there is no marker. */
export function recordedFormat(db: DatabaseSync): number | undefined {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'faultline_storage_format'").get();
  if (!table) return undefined;
  return db.prepare("SELECT version FROM faultline_storage_format").get()?.version as number | undefined;
}

/** Records `version` as the object's storage format, as a Faultline of that format would have. */
export function recordFormat(db: DatabaseSync, version: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS faultline_storage_format (version INTEGER NOT NULL)");
  db.exec("DELETE FROM faultline_storage_format");
  db.prepare("INSERT INTO faultline_storage_format (version) VALUES (?)").run(version);
}
