import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { NewJournalEntry } from "../../src/journal/entry.ts";
import type { JournalSql } from "../../src/journal/store.ts";
import { SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { SessionJournal } from "../../src/session/session-journal.ts";
import { migrateStorage, type ObjectStorage } from "../../src/session/storage-format.ts";
import { WriteBehind } from "../../src/session/write-behind.ts";
import { storageOn } from "../helpers/node-sql.ts";

// An exchange whose response is out is journalled a turn later (WriteBehind.afterResponse). Every read of the
// session's journal must still see it: a client that reads the journal right after its answer finds the exchange.

function call(id: number): NewJournalEntry {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
  return {
    time: new Date().toISOString(),
    durationMs: 1,
    request: { method: "POST", url: "/mcp", headers: {}, body: { text: body, bytes: body.length, truncated: false } },
    response: { status: 200, headers: {}, body: { text: "{}", bytes: 2, truncated: false } },
    rpc: { id, method: "tools/call", kind: "request" },
    scenario: "baseline",
  };
}

/** A session's journal on node:sqlite, paced by a real WriteBehind that writes the journal's waiting rows. */
function pacedJournal() {
  const storage = storageOn(new DatabaseSync(":memory:")) as unknown as ObjectStorage;
  migrateStorage(storage, SESSION_LAYOUT);
  let store: SessionJournal | undefined;
  const writes = new WriteBehind(() => store!.store.flush());
  store = new SessionJournal(storage.sql as unknown as JournalSql, {}, {}, writes);
  /** An exchange answered now and journalled after its response, as the recorder does it. */
  const answered = (id: number) => writes.afterResponse(() => void store!.append(call(id)));
  return { journal: store, answered };
}

async function text(stream: ReadableStream<Uint8Array>, until: string): Promise<string> {
  const reader = stream.getReader();
  let read = "";
  while (!read.includes(until)) read += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return read;
}

test("a page of the journal read in the turn of the answer holds the exchange", () => {
  const { journal, answered } = pacedJournal();
  answered(1);
  assert.deepEqual(journal.page({ order: "asc" }).entries.map((e) => e.rpc.id), [1]);
});

test("the checks' projections read in the turn of the answer hold the exchange", async () => {
  const { journal, answered } = pacedJournal();
  answered(7);
  const slim = await journal.sinceEpoch(async () => {});
  assert.equal(slim.length, 1);
});

test("a live stream opened in the turn of the answer delivers the exchange", async () => {
  const { journal, answered } = pacedJournal();
  answered(3);
  const stream = journal.stream(0);
  assert.ok(stream !== "busy");
  assert.match(await text(stream, '"seq":1'), /"id":3/);
});

test("an epoch marked in the turn of the answer comes after the exchange, so the checks no longer judge it", async () => {
  const { journal, answered } = pacedJournal();
  answered(5);
  journal.markEpoch();
  assert.deepEqual(await journal.sinceEpoch(async () => {}), []);
});
