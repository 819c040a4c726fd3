import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { NewJournalEntry } from "../../src/journal/entry.ts";
import { type JournalSql, JournalStore, type RetentionLimits } from "../../src/journal/store.ts";

// The journal store's bookkeeping over a real SQLite database (node:sqlite standing in for the Durable Object's
// SqlStorage): an append is one INSERT with its seq known in advance, and retention deletes only when its in-memory
// bounds say a limit is passed. These tests pin what that must not change: seqs are never reused, and retention
// keeps exactly the newest entries within both limits.

/** JournalSql on node:sqlite; a script of several statements runs when it has no arguments. */
function sqlOn(db: DatabaseSync): JournalSql {
  const exec = (query: string, ...bindings: unknown[]) => {
    let rows: Record<string, unknown>[] = [];
    if (bindings.length === 0 && query.trim().replace(/;\s*$/, "").includes(";")) db.exec(query);
    else if (/^\s*(SELECT|PRAGMA)|RETURNING/i.test(query)) rows = db.prepare(query).all(...(bindings as never[])) as Record<string, unknown>[];
    else db.prepare(query).run(...(bindings as never[]));
    return {
      toArray: () => rows,
      one: () => {
        if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
        return rows[0];
      },
    };
  };
  return { exec } as unknown as JournalSql;
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
