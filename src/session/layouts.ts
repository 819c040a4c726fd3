import { JOURNAL_TABLES } from "../journal/store.ts";
import { OAUTH_REQUESTS_TABLE, OAUTH_TABLES } from "../oauth/tables.ts";
import { RECORDING_TABLES } from "../recording/tables.ts";
import { TASKS_SCHEMA } from "./task-store.ts";
import { addColumn, type StorageLayout } from "./storage-format.ts";

/**
 * The storage layout of each Durable Object class, one named migration per change (see storage-format.ts). Format n
 * is the first n steps. A change to any table appends a step here; the upgrade test (test/session/layouts.test.ts,
 * and test/serve/serve.serve.ts on workerd) wakes an object stored at each older format.
 */

/** A session's own tables: its record and settings (config), counters, legacy MCP sessions, resumable SSE events. */
const SESSION_TABLES = `
CREATE TABLE IF NOT EXISTS config (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id TEXT PRIMARY KEY, protocol_version TEXT NOT NULL, capabilities TEXT NOT NULL, client_info TEXT,
  created_at INTEGER NOT NULL, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS resumable (event_id TEXT PRIMARY KEY, message TEXT NOT NULL, created_at INTEGER NOT NULL);
`;

export const SESSION_LAYOUT: StorageLayout = {
  className: "SessionObject",
  migrations: [
    {
      name: "first release: config, counters, MCP sessions, resumable events, the journal",
      up: (sql) => {
        sql.exec(SESSION_TABLES);
        sql.exec(JOURNAL_TABLES);
        // The checks' projection; journals written before the storage-format marker existed may lack it.
        addColumn(sql, "journal", "slim", "TEXT");
      },
    },
    {
      name: "journal call keys: the call each request made and what the wire showed of it, so a retry finds its previous attempt in one lookup",
      up: (sql) => {
        addColumn(sql, "journal", "call_key", "TEXT");
        addColumn(sql, "journal", "attempt", "TEXT");
        sql.exec("CREATE INDEX IF NOT EXISTS journal_call ON journal (call_key, seq)");
      },
    },
    {
      name: "the OAuth authorization server's clients, codes, tokens and grant events",
      up: (sql) => void sql.exec(OAUTH_TABLES),
    },
    {
      name: "the session's recording and a replay's loaded copy",
      up: (sql) => void sql.exec(RECORDING_TABLES),
    },
    {
      name: "OAuth clients remember when they last got a token (NULL: never), so registrations evict unused clients first",
      up: (sql) => addColumn(sql, "oauth_clients", "used_at", "INTEGER"),
    },
    {
      name: "tasks of the io.modelcontextprotocol/tasks extension (src/session/task-store.ts)",
      up: (sql) => void sql.exec(TASKS_SCHEMA),
    },
    {
      name: "OAuth grant events name the refresh token each refresh presented (its HMAC), and requests to the endpoints auth.server_faults faults are kept, for the checks",
      up: (sql) => {
        addColumn(sql, "oauth_events", "presented", "TEXT");
        sql.exec(OAUTH_REQUESTS_TABLE);
      },
    },
  ],
};

export const INDEX_LAYOUT: StorageLayout = {
  className: "SessionIndex",
  migrations: [
    {
      name: "first release: the list of sessions",
      up: (sql) => void sql.exec("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, scenario TEXT NOT NULL, created_at TEXT NOT NULL)"),
    },
    {
      name: "the audit log",
      up: (sql) => void sql.exec("CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, line TEXT NOT NULL)"),
    },
    {
      name: "the list of uploaded HARs, so FAULTLINE_MAX_UPLOADS can bound them",
      up: (sql) => void sql.exec("CREATE TABLE IF NOT EXISTS uploads (id TEXT PRIMARY KEY, created_at TEXT NOT NULL)"),
    },
    {
      name: "whether each listed session is proxied (1), so the dashboard's list marks it without waking every session (NULL: listed before)",
      up: (sql) => addColumn(sql, "sessions", "proxied", "INTEGER"),
    },
  ],
};
