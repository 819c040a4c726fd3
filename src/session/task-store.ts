import { TaskRowSchema, type TaskRow, type TaskStore } from "../mcp/tasks/store.ts";
import { DEFAULT_TTL_MS } from "../mcp/tasks/lifecycle.ts";

/** What the store uses of a Durable Object's SQL (node:sqlite matches it in the tests, like LiveSession's SessionSql). */
interface TaskSql {
  exec<T extends Record<string, string | number | null | ArrayBuffer>>(query: string, ...bindings: unknown[]): { toArray(): T[] };
}

/** Tasks one session keeps at most; creating one more drops the oldest. Each also ends at its ttlMs. */
export const MAX_TASKS = 200;

/** The tasks table, created by the session's migrations (src/session/layouts.ts, step 6). */
export const TASKS_SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, row TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tasks_by_created ON tasks (created_at);
`;

/**
 * SEP-2663 task state in the session's Durable Object SQLite: a row per task, as JSON validated on read. A write is
 * durable when exec returns (the output gate holds the response until it is), so a created task resolves at once.
 */
export class SqlTaskStore implements TaskStore {
  private readonly sql: TaskSql;
  private readonly now: () => number;

  constructor(sql: TaskSql, now: () => number) {
    this.sql = sql;
    this.now = now;
  }

  create(row: TaskRow): void {
    this.sql.exec("DELETE FROM tasks WHERE expires_at <= ?", this.now());
    this.sql.exec("DELETE FROM tasks WHERE id IN (SELECT id FROM tasks ORDER BY created_at DESC LIMIT -1 OFFSET ?)", MAX_TASKS - 1);
    this.put(row);
  }

  get(id: string): TaskRow | undefined {
    const found = this.sql.exec<{ row: string }>("SELECT row FROM tasks WHERE id = ?", id).toArray()[0];
    if (!found) return undefined;
    const parsed = TaskRowSchema.safeParse(JSON.parse(found.row));
    return parsed.success ? parsed.data : undefined; // a row this version cannot read is a task it does not know
  }

  put(row: TaskRow): void {
    // A task kept past its ttlMs (TaskPlan.keptPastTtl) stays at most as long as a task of the default ttlMs.
    const keptFor = row.keptPastTtl ? Math.max(row.ttlMs, DEFAULT_TTL_MS) : row.ttlMs;
    this.sql.exec("INSERT OR REPLACE INTO tasks (id, created_at, expires_at, row) VALUES (?, ?, ?, ?)", row.id, row.createdAt, row.createdAt + keptFor, JSON.stringify(row));
  }

  delete(id: string): void {
    this.sql.exec("DELETE FROM tasks WHERE id = ?", id);
  }
}
