import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { JournalSql } from "../../src/journal/store.ts";
import { RECORDING_LIMITS, type RecordedExchange } from "../../src/recording/exchange.ts";
import { whenOut } from "../../src/journal/recorder.ts";
import { recordExchange } from "../../src/recording/recorder.ts";
import { RecordingStore } from "../../src/recording/store.ts";
import { SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { migrateStorage, type ObjectStorage } from "../../src/session/storage-format.ts";
import { WriteBehind } from "../../src/session/write-behind.ts";
import { jsonResponse } from "../../src/wire/response.ts";
import { storageOn } from "../helpers/node-sql.ts";

// A recorded exchange whose answer is known whole is recorded a turn after its response (WriteBehind.afterResponse),
// and the recording store keeps its key, count and size in memory: a read must still see every exchange answered,
// and the session's limits must still hold.

function database() {
  const storage = storageOn(new DatabaseSync(":memory:")) as unknown as ObjectStorage;
  migrateStorage(storage, SESSION_LAYOUT);
  return storage.sql as unknown as JournalSql;
}

/** A recording store paced by a real WriteBehind, and a call answered through the recorder as a session does it. */
function pacedRecording() {
  const writes = new WriteBehind(() => undefined);
  const store = new RecordingStore(database(), () => writes.settle());
  const answered = (id: number) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
    const request = new Request("http://127.0.0.1/mcp", { method: "POST", body });
    const response = jsonResponse(200, { jsonrpc: "2.0", id, result: { content: [] } });
    return recordExchange(store, { started: Date.now(), request, requestText: body, response }, { waitUntil: () => undefined, afterResponse: writes.afterResponse });
  };
  return { store, answered };
}

function exchange(text: string): RecordedExchange {
  return {
    time: new Date().toISOString(),
    durationMs: 1,
    request: { method: "POST", headers: {}, body: { text, truncated: false } },
    response: { status: 200, headers: {}, headersAtMs: 0, body: { text: "{}", truncated: false } },
    rpc: { kind: "request", id: 1 },
  } as RecordedExchange;
}

test("a recording read in the turn of the answer holds the exchange, with the body the client was sent", () => {
  const { store, answered } = pacedRecording();
  const sent = answered(1);
  const recording = store.recording();
  assert.equal(recording?.exchanges.length, 1);
  assert.equal(recording?.exchanges[0]?.response.body.text, JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }));
  assert.equal(sent.bodyUsed, false, "the client's body is left to the client");
});

test("exchanges recorded after their responses keep their order", () => {
  const { store, answered } = pacedRecording();
  for (const id of [1, 2, 3]) answered(id);
  assert.deepEqual(store.recording()?.exchanges.map((e) => e.rpc.id), [1, 2, 3]);
});

test("the session's size limit holds across the exchanges of one store and a store opened again on its database", () => {
  const sql = database();
  const half = "x".repeat(RECORDING_LIMITS.sessionBytes / 2 - 10);
  const first = new RecordingStore(sql);
  first.key();
  first.append(exchange(half));
  assert.equal(first.recording()?.truncated, undefined);
  // Reopened (a restart of the session's object): the size so far is read back, so a second half still fits, a third not.
  const again = new RecordingStore(sql);
  again.append(exchange(half));
  assert.equal(again.recording()?.truncated, undefined);
  again.append(exchange(half));
  assert.match(again.recording()?.truncated ?? "", /exchange 3 was not recorded/);
  assert.equal(new RecordingStore(sql).recording()?.exchanges.length, 2);
});

test("a task that throws once its response is out rejects its own promise, and the other waiting tasks still run", async () => {
  const writes = new WriteBehind(() => undefined);
  const failing = whenOut(writes.afterResponse, () => {
    throw new Error("the store is gone");
  });
  let ran = false;
  const next = whenOut(writes.afterResponse, () => void (ran = true));
  writes.settle();
  assert.equal(ran, true);
  await assert.rejects(failing, /the store is gone/);
  await next;
});
