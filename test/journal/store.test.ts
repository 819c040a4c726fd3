import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { NewJournalEntry } from "../../src/journal/entry.ts";
import { type JournalSql, JournalStore, PAGE_MAX_CHARS, type RetentionLimits, WRITE_BEHIND_MAX_ROWS } from "../../src/journal/store.ts";
import { cutName, MAX_STORED_HEADER, MAX_STORED_NAME, NAME_CUT_MARKER } from "../../src/base/stored-bounds.ts";
import { classify } from "../../src/classify/index.ts";
import { storageOn } from "../helpers/node-sql.ts";
import { SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { migrateStorage, type ObjectStorage } from "../../src/session/storage-format.ts";

// The journal store's bookkeeping over a real SQLite database (node:sqlite standing in for the Durable Object's
// SqlStorage): an append is one INSERT with its seq known in advance, and retention deletes only when its in-memory
// bounds say a limit is passed. These tests pin what that must not change: seqs are never reused, and retention
// keeps exactly the newest entries within both limits.

/** JournalSql on node:sqlite (test/helpers/node-sql.ts), with the tables a session's migrations make. */
function sqlOn(db: DatabaseSync): JournalSql {
  const storage = storageOn(db) as unknown as ObjectStorage;
  migrateStorage(storage, SESSION_LAYOUT);
  return storage.sql as unknown as JournalSql;
}

const HOUR = 3_600_000;
const T0 = Date.parse("2026-01-01T00:00:00Z");

function entry(id: number, timeMs: number): NewJournalEntry {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: `n${id}` } } });
  return {
    time: new Date(timeMs).toISOString(),
    durationMs: 1,
    request: { method: "POST", url: "/mcp", headers: {}, body: { text: body, bytes: body.length, truncated: false } },
    response: { status: 200, headers: {}, body: { text: "{}", bytes: 2, truncated: false } },
    rpc: { id, method: "tools/call", kind: "request" },
    scenario: "baseline",
  };
}

function storeOn(db: DatabaseSync, limits: Partial<RetentionLimits> = {}): JournalStore {
  return new JournalStore(sqlOn(db), { maxEntries: 1_000, maxAgeMs: 1_000 * HOUR, ...limits });
}

const seqs = (store: JournalStore) => store.query({ order: "asc" }).entries.map((e) => e.seq);

test("seqs count up from 1 and each stored entry carries its own seq in its JSON", () => {
  const store = storeOn(new DatabaseSync(":memory:"));
  const appended = [1, 2, 3].map((id) => store.append(entry(id, T0), T0).seq);
  assert.deepEqual(appended, [1, 2, 3]);
  assert.deepEqual(store.query({ order: "asc" }).entries.map((e) => [e.seq, e.rpc.id]), [[1, 1], [2, 2], [3, 3]]);
  assert.deepEqual(store.slimPage(0, 10).map((e) => e.seq), [1, 2, 3]);
});

test("a store reopened on the same database continues the seqs, also after its entries were cleared", () => {
  const db = new DatabaseSync(":memory:");
  const first = storeOn(db);
  for (const id of [1, 2, 3]) first.append(entry(id, T0), T0);
  first.clear();
  assert.equal(first.append(entry(4, T0), T0).seq, 4);
  first.clear();
  const reopened = storeOn(db);
  assert.equal(reopened.append(entry(5, T0), T0).seq, 5);
  assert.deepEqual(seqs(reopened), [5]);
});

test("retention by count keeps exactly the newest maxEntries entries after every append, across a reopen", () => {
  const db = new DatabaseSync(":memory:");
  let store = storeOn(db, { maxEntries: 3 });
  for (let id = 1; id <= 5; id++) {
    store.append(entry(id, T0), T0);
    assert.deepEqual(seqs(store), Array.from({ length: Math.min(id, 3) }, (_, i) => Math.max(id, 3) - 2 + i));
  }
  store = storeOn(db, { maxEntries: 2 });
  store.append(entry(6, T0), T0);
  assert.deepEqual(seqs(store), [5, 6]);
});

test("retention by age drops every entry older than the limit, also one already old when the store was opened", () => {
  const db = new DatabaseSync(":memory:");
  let store = storeOn(db, { maxAgeMs: HOUR });
  store.append(entry(1, T0), T0);
  store.append(entry(2, T0 + 30 * 60_000), T0 + 30 * 60_000);
  store.append(entry(3, T0 + 61 * 60_000), T0 + 61 * 60_000);
  assert.deepEqual(seqs(store), [2, 3]);
  store = storeOn(db, { maxAgeMs: HOUR });
  store.append(entry(4, T0 + 200 * 60_000), T0 + 200 * 60_000);
  assert.deepEqual(seqs(store), [4]);
});

test("retention by age still works after retention by count deleted the oldest entries", () => {
  const store = storeOn(new DatabaseSync(":memory:"), { maxEntries: 2, maxAgeMs: HOUR });
  store.append(entry(1, T0), T0);
  store.append(entry(2, T0 + 10 * 60_000), T0 + 10 * 60_000);
  store.append(entry(3, T0 + 20 * 60_000), T0 + 20 * 60_000);
  assert.deepEqual(seqs(store), [2, 3]);
  store.append(entry(4, T0 + 75 * 60_000), T0 + 75 * 60_000);
  assert.deepEqual(seqs(store), [3, 4]); // the cutoff is T0 + 15 min: entry 2 (T0 + 10 min) goes, entry 3 stays
});

// ---- what the store keeps in memory (issue 12): the newest attempt per call, and rows written behind ----

/** A call's entry with the classifier's real verdict on a tool error (failed) or a success. */
function call(args: string, failed: boolean, timeMs = T0): NewJournalEntry {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: args } } });
  const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x" }], ...(failed ? { isError: true } : {}) } });
  const verdict = classify({ request: { body: JSON.parse(body) }, response: { status: 200, headers: { "content-type": "application/json" }, body: answer } });
  return {
    time: new Date(timeMs).toISOString(),
    durationMs: 1,
    request: { method: "POST", url: "/mcp", headers: {}, body: { text: body, bytes: body.length, truncated: false } },
    response: { status: 200, headers: { "content-type": "application/json" }, body: { text: answer, bytes: answer.length, truncated: false } },
    rpc: { id: 1, method: "tools/call", kind: "request", toolName: "echo" },
    scenario: "baseline",
    verdict,
  };
}

/** Rows written behind are pruned by age when they are written, against the clock: they are dated now. */
const NOW = Date.now();
const rowsIn = (db: DatabaseSync) => (db.prepare("SELECT COUNT(*) AS n FROM journal").get() as { n: number }).n;

test("a retry links to its failed attempt also when more other calls came between than the store keeps in memory", () => {
  const store = storeOn(new DatabaseSync(":memory:"), { maxEntries: 10_000 });
  const failed = store.append(call("first", true), T0);
  for (let i = 0; i < 4_200; i++) store.append(call(`other ${i}`, false), T0);
  assert.equal(store.append(call("first", false), T0).retryOf, failed.seq);
});

test("a retry does not link to a failed attempt that retention by count deleted", () => {
  const store = storeOn(new DatabaseSync(":memory:"), { maxEntries: 2 });
  store.append(call("gone", true), T0);
  store.append(call("a", false), T0);
  store.append(call("b", false), T0);
  const retry = store.append(call("gone", false), T0);
  assert.equal(retry.retryOf, undefined);
  assert.deepEqual(seqs(store), [3, 4]);
});

test("a retry does not link to a failed attempt that retention by age deleted, also when it was stored after a newer one", () => {
  // A long stream is stored when it ends: its seq is above calls that started after it, its time below theirs.
  const store = storeOn(new DatabaseSync(":memory:"), { maxAgeMs: HOUR });
  store.append(call("later", false, T0 + 30 * 60_000), T0 + 30 * 60_000);
  const old = store.append(call("slow", true, T0), T0 + 31 * 60_000);
  assert.equal(old.seq, 2);
  store.append(call("tick", false, T0 + 70 * 60_000), T0 + 70 * 60_000); // cutoff T0 + 10 min: seq 2 goes, seq 1 stays
  assert.deepEqual(seqs(store), [1, 3]);
  assert.equal(store.append(call("slow", false, T0 + 71 * 60_000), T0 + 71 * 60_000).retryOf, undefined);
});

test("written behind, rows wait in memory until the owner flushes, and every read writes them first", () => {
  const db = new DatabaseSync(":memory:");
  let told = 0;
  const store = new JournalStore(sqlOn(db), { maxEntries: 1_000, maxAgeMs: 1_000 * HOUR }, {}, () => told++);
  for (const id of [1, 2, 3]) store.append(entry(id, NOW), NOW);
  assert.equal(rowsIn(db), 0);
  assert.equal(told, 1, "the owner is told once, when the first row waits");
  store.flush();
  assert.equal(rowsIn(db), 3);
  store.append(entry(4, NOW), NOW);
  assert.equal(told, 2);
  assert.deepEqual(seqs(store), [1, 2, 3, 4], "a query sees the waiting row");
  assert.equal(rowsIn(db), 4);
  store.append(entry(5, NOW), NOW);
  assert.deepEqual(store.slimPage(0, 10).map((e) => e.seq), [1, 2, 3, 4, 5]);
  store.append(entry(6, NOW), NOW);
  assert.equal(store.count(), 6);
});

test("written behind, no more than WRITE_BEHIND_MAX_ROWS rows wait: the next append writes them without the owner", () => {
  const db = new DatabaseSync(":memory:");
  const store = new JournalStore(sqlOn(db), { maxEntries: 1_000, maxAgeMs: 1_000 * HOUR }, {}, () => {});
  for (let id = 1; id < WRITE_BEHIND_MAX_ROWS; id++) store.append(entry(id, NOW), NOW);
  assert.equal(rowsIn(db), 0);
  store.append(entry(WRITE_BEHIND_MAX_ROWS, NOW), NOW);
  assert.equal(rowsIn(db), WRITE_BEHIND_MAX_ROWS);
});

test("written behind, retention applies when the rows are written, and a cleared journal drops what waited", () => {
  const db = new DatabaseSync(":memory:");
  const store = new JournalStore(sqlOn(db), { maxEntries: 2, maxAgeMs: 1_000 * HOUR }, {}, () => {});
  for (const id of [1, 2, 3, 4]) store.append(entry(id, NOW), NOW);
  store.flush();
  assert.deepEqual(seqs(store), [3, 4]);
  store.append(entry(5, NOW), NOW);
  store.clear();
  store.flush();
  assert.equal(rowsIn(db), 0);
  assert.equal(store.append(entry(6, NOW), NOW).seq, 6, "seqs are not reused");
});

test("a retry of a call whose failed attempt still waits in memory links to it", () => {
  const store = new JournalStore(sqlOn(new DatabaseSync(":memory:")), { maxEntries: 1_000, maxAgeMs: 1_000 * HOUR }, {}, () => {});
  const failed = store.append(call("pending", true, NOW), NOW);
  assert.equal(store.append(call("pending", false, NOW), NOW).retryOf, failed.seq);
});

test("every name an entry holds is stored cut with the marker, and the method column and the projection hold the cut one", () => {
  const db = new DatabaseSync(":memory:");
  const store = storeOn(db);
  const long = "m".repeat(800_000);
  const e = entry(1, T0);
  const verdict = classify({ request: { headers: {}, body: {} }, response: { status: 200, headers: { "content-type": "application/json" }, body: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: `Method not found: ${long}`, data: { method: long } } } } });
  store.append({ ...e, rpc: { id: long, method: long, kind: "request", toolName: long }, mcpSessionId: long, clientInfo: { name: long }, request: { ...e.request, headers: { [`x-${long}`]: long, "mcp-method": long } }, verdict }, T0);
  const row = db.prepare("SELECT method, entry, slim FROM journal").get() as { method: string; entry: string; slim: string };
  assert.equal(row.method.length, MAX_STORED_NAME);
  assert.ok(row.method.endsWith(NAME_CUT_MARKER));
  assert.ok(row.entry.length < 12_000, `the stored entry holds ${row.entry.length} characters`);
  assert.ok(row.slim.length < 12_000, `the stored projection holds ${row.slim.length} characters`);
  const stored = JSON.parse(row.entry);
  assert.equal(stored.rpc.toolName, cutName(long));
  assert.equal(stored.request.headers["mcp-method"], cutName(long, MAX_STORED_HEADER));
  assert.equal(stored.verdict.outcome, verdict.outcome, "the verdict keeps its outcome");
});

test("a page of large entries stops at the page's character budget and hands on a cursor", () => {
  const db = new DatabaseSync(":memory:");
  const store = storeOn(db);
  const big = "x".repeat(1024 * 1024);
  for (let i = 1; i <= 20; i++) {
    const e = entry(i, T0 + i);
    store.append({ ...e, response: { ...e.response, body: { text: big, bytes: big.length, truncated: false } } }, T0 + i);
  }
  const first = store.query({ limit: 1000, order: "asc" });
  assert.ok(first.entries.length < 20 && first.entries.length >= 1, `${first.entries.length} entries`);
  assert.ok(JSON.stringify(first.entries).length <= PAGE_MAX_CHARS + 1024 * 1024 + 4096);
  assert.equal(first.nextSeq, first.entries.at(-1)!.seq);
  let seen = first.entries.length;
  for (let after: number | undefined = first.nextSeq; after !== undefined; ) {
    const page = store.query({ limit: 1000, order: "asc", sinceSeq: after });
    seen += page.entries.length;
    after = page.nextSeq;
  }
  assert.equal(seen, 20, "the cursor reaches every entry");
});
