import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { LiveSession, overflowKey, SESSION_TABLE_LIMITS, type SessionSql } from "../../src/session/live-session.ts";
import { cutName, MAX_STORED_NAME, NAME_CUT_MARKER } from "../../src/base/stored-bounds.ts";
import { sqlOn } from "../helpers/node-sql.ts";

// A session's counters are written behind (issue 12): counted in memory, written by the owner's flush. These tests
// run LiveSession on node:sqlite standing in for the Durable Object's SqlStorage, with the counters table the
// session object creates.

function sessionOn(db: DatabaseSync, flushSoon: () => void = () => {}): LiveSession {
  const sql = sqlOn(db) as unknown as SessionSql;
  return new LiveSession({ storage: { sql }, waitUntil: () => {} }, flushSoon);
}

function database(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE counters (k TEXT PRIMARY KEY, n INTEGER NOT NULL)");
  return db;
}

const stored = (db: DatabaseSync) => Object.fromEntries((db.prepare("SELECT k, n FROM counters ORDER BY k").all() as { k: string; n: number }[]).map((r) => [r.k, r.n]));

test("counts are exact in memory, reach storage at the owner's flush, and a new instance reads them back", () => {
  const db = database();
  let told = 0;
  const session = sessionOn(db, () => told++);
  assert.deepEqual(session.countRequest({ method: "tools/call", tool: "echo" }), { posts: 1, method: 1, tool: 1, mcpSession: 0 });
  assert.deepEqual(session.countRequest({ method: "tools/call", tool: "echo", mcpSessionId: "m1" }), { posts: 2, method: 2, tool: 2, mcpSession: 1 });
  assert.equal(session.count("scenario:x"), 1);
  assert.deepEqual(stored(db), {}, "nothing is written by a request");
  assert.equal(told, 1, "the owner is told once, when the first change waits");
  session.flushCounters();
  assert.deepEqual(stored(db), { "method:tools/call": 2, "mcp-session:m1": 1, posts: 2, "scenario:x": 1, "tool-calls:echo": 2 });
  const again = sessionOn(db);
  assert.equal(again.count("posts"), 3);
  assert.equal(again.counted("tool-calls:echo"), 2);
});

test("more changed counters than one statement may bind are all written", () => {
  const db = database();
  const session = sessionOn(db);
  for (let i = 0; i < 250; i++) session.count(`k${i}`);
  session.flushCounters();
  assert.equal(Object.keys(stored(db)).length, 250);
  assert.ok(Object.values(stored(db)).every((n) => n === 1));
});

test("more counters than memory holds lose no count: what was counted is written before memory starts again", () => {
  const db = database();
  const session = sessionOn(db);
  session.count("first");
  // Reads fill memory too (a counter key is at most SESSION_TABLE_LIMITS.counterKeys apart from these).
  for (let i = 0; i < 10_050; i++) session.counted(`other ${i}`);
  assert.equal(session.count("first"), 2);
  session.flushCounters();
  assert.equal(stored(db).first, 2);
  assert.equal(Object.keys(stored(db)).length, 1);
});

test("a counter key is cut like a name, and past the cap on distinct keys a new one counts in its family's overflow key", () => {
  const db = database();
  const session = sessionOn(db);
  const long = `method:${"m".repeat(800_000)}`;
  assert.equal(session.count(long), 1);
  assert.equal(session.count(long), 2, "the same long name is the same (cut) key");
  for (let i = 1; i < SESSION_TABLE_LIMITS.counterKeys; i++) session.count(`tool-calls:t${i}`);
  assert.equal(session.count("tool-calls:one-too-many"), 1);
  assert.equal(session.count("tool-calls:another"), 2, "both count in the overflow key");
  assert.equal(session.counted("tool-calls:t1"), 1, "a key counted before the cap keeps its own count");
  assert.equal(session.count("posts"), 1, "a new family gets its overflow key too");
  session.flushCounters();
  const keys = Object.keys(stored(db));
  assert.ok(keys.every((k) => k.length <= MAX_STORED_NAME), "no stored key is longer than a name");
  assert.ok(keys.includes(cutName(long)) && cutName(long).endsWith(NAME_CUT_MARKER));
  assert.equal(stored(db)[overflowKey("tool-calls:x")], 2);
  assert.equal(keys.length, SESSION_TABLE_LIMITS.counterKeys + 2, "the cap, and one overflow key per family past it");
  const again = sessionOn(db);
  assert.equal(again.count("method:new"), 1);
  assert.equal(again.counted(overflowKey("method:new")), 1, "a new instance reads the stored keys' number back and keeps the cap");
  session.clearCounters();
  session.count("method:after-reset");
  session.flushCounters();
  assert.deepEqual(stored(db), { "method:after-reset": 1 }, "after a reset the cap starts again");
});

test("clearing the counters zeroes memory and storage, and nothing counted before comes back at the next flush", () => {
  const db = database();
  const session = sessionOn(db);
  session.count("a");
  session.flushCounters();
  session.count("a");
  session.clearCounters();
  assert.equal(session.counted("a"), 0);
  session.flushCounters();
  assert.deepEqual(stored(db), {});
  assert.deepEqual(session.allCounters(), {});
  session.count("b");
  assert.deepEqual(session.allCounters(), { b: 1 }, "allCounters writes what waits first");
});
