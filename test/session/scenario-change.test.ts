import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { RecordedExchange, Recording } from "../../src/recording/exchange.ts";
import { SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { LiveSession, type SessionSql } from "../../src/session/live-session.ts";
import type { SessionRecord } from "../../src/session/record.ts";
import { changeScenario, type ChangedParts } from "../../src/session/scenario-change.ts";
import { SessionJournal } from "../../src/session/session-journal.ts";
import { migrateStorage, type ObjectStorage } from "../../src/session/storage-format.ts";
import { StoredRecord } from "../../src/session/stored-record.ts";
import type { JournalSql } from "../../src/journal/store.ts";
import { storageOn } from "../helpers/node-sql.ts";

// A scenario change is one transaction over the session's real parts (node:sqlite standing in for the Durable
// Object's SQLite): the record, the counters, the checks' epoch and a replay's recording change together or not at all.

const KEY = "ab".repeat(32);

function exchange(method: string | null, digest: string): RecordedExchange {
  return {
    time: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
    request: { method: "POST", headers: {}, body: { text: "{}", truncated: false } },
    response: { status: 200, headers: {}, headersAtMs: 0, body: { text: "{}", truncated: false } },
    rpc: { kind: "request", id: 1 },
    // A null method breaks the replay table's NOT NULL: the load fails part-way, after its first rows.
    match: { method: method as string, digest },
  };
}

const recording = (...exchanges: RecordedExchange[]): Recording => ({ key: KEY, exchanges });

function session() {
  const db = new DatabaseSync(":memory:");
  const storage = storageOn(db) as unknown as ObjectStorage;
  migrateStorage(storage, SESSION_LAYOUT);
  const sql = storage.sql;
  const record = new StoredRecord(sql);
  const live = new LiveSession({ storage: { sql: sql as unknown as SessionSql }, waitUntil: () => {} }, () => {});
  const journal = new SessionJournal(sql as unknown as JournalSql, {}, {}, { soon: () => {}, settle: () => {} });
  // The replay table as RecordingStore.load writes it (that store takes Workers' SqlStorage, which Node's types lack).
  const replays = {
    load(r: Recording) {
      sql.exec("DELETE FROM replay");
      r.exchanges.forEach((x, i) => sql.exec("INSERT INTO replay (seq, method, digest, exchange) VALUES (?, ?, ?, ?)", i + 1, x.match!.method, x.match!.digest, JSON.stringify(x)));
    },
  };
  const parts: ChangedParts = { transactionSync: (fn) => storage.transactionSync(fn), record, counters: live, journal, recording: replays };
  const original: SessionRecord = { id: "s", scenario: "replay", params: { from: "a" }, createdAt: "2026-01-01T00:00:00.000Z" };
  record.insert(original);
  replays.load(recording(exchange("tools/call", "first")));
  live.count("posts");
  live.flushCounters();
  const loaded = () => (db.prepare("SELECT digest FROM replay ORDER BY seq").all() as { digest: string }[]).map((r) => r.digest);
  const stored = () => JSON.parse((db.prepare("SELECT v FROM config WHERE k = 'session'").get() as { v: string }).v) as SessionRecord;
  return { parts, record, live, original, loaded, stored };
}

test("a switch to replay sets the scenario, its params and its recording together, with the counters reset", () => {
  const s = session();
  const returned = changeScenario(s.parts, s.original, { scenario: "replay", params: { from: "b" }, replay: recording(exchange("tools/call", "second")) });
  assert.ok(!(returned instanceof Promise), "one synchronous call: nothing else runs on the object in between");
  assert.deepEqual([s.stored().params, s.record.get()?.params, s.loaded()], [{ from: "b" }, { from: "b" }, ["second"]]);
  assert.equal(s.live.counted("posts"), 0);
});

test("a switch to replay whose recording fails to load changes nothing: the old scenario, params, recording and counters stay live", () => {
  const s = session();
  const failing = recording(exchange("tools/call", "second"), exchange(null, "third"));
  assert.throws(() => changeScenario(s.parts, s.original, { scenario: "replay", params: { from: "b" }, replay: failing }), /NOT NULL/);
  assert.deepEqual(s.stored(), s.original);
  assert.deepEqual(s.record.get(), s.original, "memory is read back from storage after the rollback");
  assert.deepEqual(s.loaded(), ["first"]);
  assert.equal(s.live.counted("posts"), 1);
});

test("a switch away from replay keeps no recording step and still resets the counters", () => {
  const s = session();
  changeScenario(s.parts, s.original, { scenario: "baseline", params: { delayMs: 0 } });
  assert.deepEqual([s.stored().scenario, s.stored().params], ["baseline", { delayMs: 0 }]);
  assert.equal(s.live.counted("posts"), 0);
});
