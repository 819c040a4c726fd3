import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { LiveSession, SESSION_TABLE_LIMITS, type SessionSql } from "../../src/session/live-session.ts";
import { MAX_STORED_NAME, MAX_STORED_OBJECT } from "../../src/base/stored-bounds.ts";
import { migratedSqlOn } from "../helpers/node-sql.ts";

// Issue 27, finding 3: `mcp_sessions` and `resumable` rows were never pruned, and an initialize's capabilities and
// clientInfo were kept whole. Each table now has a cap and drops its oldest rows first; what a row keeps is bounded.

function session(): { live: LiveSession; db: DatabaseSync } {
  const db = new DatabaseSync(":memory:");
  const sql = migratedSqlOn(db) as unknown as SessionSql;
  return { live: new LiveSession({ storage: { sql }, waitUntil: () => {} }, () => {}), db };
}

const rows = (db: DatabaseSync, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

test("past the cap on MCP sessions the oldest are dropped first, and a dropped one is not found any more", () => {
  const { live, db } = session();
  const cap = SESSION_TABLE_LIMITS.mcpSessions;
  for (let i = 0; i < cap + 5; i++) {
    live.createMcpSession(`s${i}`, "2025-11-25", {}, { name: "c", version: "1" });
    if (i < 10) assert.ok(live.getMcpSession(`s${i}`), "read once, so it is in memory when it is dropped");
  }
  assert.equal(rows(db, "mcp_sessions"), cap);
  for (let i = 0; i < 5; i++) assert.equal(live.getMcpSession(`s${i}`), undefined, `s${i}, among the oldest, is gone from storage and memory`);
  assert.ok(live.getMcpSession("s5"), "the oldest kept");
  assert.ok(live.getMcpSession(`s${cap + 4}`), "the newest");
});

test("an initialize's capabilities and clientInfo are stored only up to a size, else as a note of their size", () => {
  const { live, db } = session();
  live.createMcpSession("big", "2025-11-25", { huge: "c".repeat(800_000) }, { name: "n".repeat(800_000), version: "1", extra: "x".repeat(800_000) });
  live.createMcpSession("small", "2025-11-25", { elicitation: {} }, { name: "client", version: "1" });
  const stored = db.prepare("SELECT capabilities, client_info FROM mcp_sessions WHERE id = 'big'").get() as { capabilities: string; client_info: string };
  assert.ok(stored.capabilities.length <= MAX_STORED_OBJECT && stored.client_info.length <= MAX_STORED_OBJECT, `${stored.capabilities.length} and ${stored.client_info.length} characters`);
  assert.match(JSON.parse(stored.capabilities)._faultline, /capabilities not kept: \d+ characters/);
  const info = live.clientInfo("big")!;
  assert.equal((info.name as string).length, MAX_STORED_NAME);
  assert.equal(info.version, "1");
  assert.deepEqual(live.getMcpSession("small")?.clientCapabilities, { elicitation: {} }, "small capabilities are kept whole");
  assert.deepEqual(live.clientInfo("small"), { name: "client", version: "1" });
});

test("past the cap on kept resumable events the oldest are dropped first", () => {
  const { live, db } = session();
  const cap = SESSION_TABLE_LIMITS.resumable;
  for (let i = 0; i < cap + 3; i++) live.keepForResume(`e${i}`, { n: i });
  assert.equal(rows(db, "resumable"), cap);
  assert.equal(live.takeResumed("e0"), undefined, "the oldest is gone");
  assert.equal(live.takeResumed("e2"), undefined);
  assert.deepEqual(live.takeResumed("e3"), { n: 3 }, "the oldest kept");
  assert.deepEqual(live.takeResumed(`e${cap + 2}`), { n: cap + 2 });
});
