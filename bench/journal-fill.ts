/**
 * Fills a session's journal fast for the growth figures. MCP has no batches (Faultline refuses JSON-RPC arrays) and
 * 100,000 calls over HTTP take minutes on a busy machine, so: with the server stopped, one real journalled entry of
 * the session is copied `total - 1` times inside its Durable Object's SQLite file (one INSERT … SELECT over a
 * recursive counter, in one transaction, every column including the checks' projection and the retry lookup key), and
 * each copy's JSON gets its own seq, as the store writes it.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Finds the SessionObject database whose journal holds exactly one entry, and grows it to `total` entries. */
export async function fillJournal(stateDir: string, total: number): Promise<void> {
  const dir = join(stateDir, "v3", "do", "faultline-SessionObject");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sqlite"));
  for (const file of files) {
    const db = new DatabaseSync(join(dir, file));
    try {
      const hasJournal = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
      if (!hasJournal || (db.prepare("SELECT COUNT(*) AS n FROM journal").get() as { n: number }).n !== 1) continue;
      db.exec("BEGIN");
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO journal (time_ms, method, outcome, entry, slim, call_key, attempt)
         SELECT j.time_ms, j.method, j.outcome, j.entry, j.slim, j.call_key, j.attempt FROM n, (SELECT * FROM journal LIMIT 1) AS j`,
      ).run(total - 1);
      db.exec("UPDATE journal SET entry = json_set(entry, '$.seq', seq), slim = json_set(slim, '$.seq', seq)");
      db.exec("COMMIT");
      return;
    } finally {
      db.close();
    }
  }
  throw new Error(`no session database in ${dir} holds exactly one journal entry`);
}
