import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Every Durable Object's SQLite database under a state folder, with its bytes (the database and its -wal and -shm files). */
export async function objectFiles(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const base = entry.name.match(/^(.*\.sqlite)(?:-wal|-shm)?$/)?.[1];
    if (!entry.isFile() || base === undefined) continue;
    const key = join(entry.parentPath, base);
    files.set(key, (files.get(key) ?? 0) + (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size);
  }
  return files;
}

/** The application tables in one object's database (workerd's own `_cf_` tables left out); none when the file is gone. */
export function tablesIn(path: string): string[] {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch {
    return [];
  }
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name").all();
    return rows.map((row) => String(row.name));
  } finally {
    db.close();
  }
}
