import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput, OK_RESULT, SESSION } from "./entries.ts";

// progress-token-sent, progress-patience and progress-bounded (src/checks/progress.ts) on hand-built journals: every
// status of each.

const LONG = { kind: "progress", ms: 10_000, intervalMs: 1_000, patienceMs: 5_000, boundMs: 8_000 };
const TOKEN = { _meta: { progressToken: "p-1" } };

function only(entries: JournalEntry[], id: string): Check {
  const found = checksOf(entries).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0]!;
}

/** SSE text with `n` notifications/progress for `token`, then the answer to request 1 unless `answered` is false. */
function stream(n: number, answered = true, token: string | number = "p-1"): string {
  const notes = Array.from({ length: n }, (_, i) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i + 1, total: 10 } })}\n\n`);
  const answer = answered ? `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: OK_RESULT })}\n\n` : "";
  return notes.join("") + answer;
}

/** A long call (JSON-RPC id 1) whose stream delivered `n` progress notifications; `rest` says how it ended. */
function long(n: number, rest: Partial<EntryInput> = {}): JournalEntry {
  const answered = rest.clientClosedAtMs === undefined && !rest.cutByDeadline;
  return call(1, 0, "slow_report", {}, { id: 1, sse: true, body: stream(n, answered), durationMs: 10_005, fault: LONG, effects: "ran", params: TOKEN, ...rest });
}

const noToken = (rest: Partial<EntryInput> = {}) => long(0, { params: {}, body: ": faultline: still working\n\n" + stream(0), ...rest });

// ---- progress-token-sent ----

test("progress-token-sent passes when the long call carried a progressToken, naming it and the progress that arrived", () => {
  const c = only([long(10)], "progress-token-sent");
  assert.equal(c.status, "pass", c.message);
  assert.equal(c.message, 'tools/call slow_report (seq 1, a call of 10000 ms) carried _meta.progressToken "p-1", and 10 notifications/progress reached its stream.');
});

test("progress-token-sent warns when the long call carried no progressToken: a slow tool looks like a dead one", () => {
  const c = only([noToken()], "progress-token-sent");
  assert.equal(c.status, "warning", c.message);
  assert.match(c.message, /carried no _meta.progressToken.*cannot tell a slow tool from a dead one/);
});

test("progress-token-sent is info when the journal cut the request body", () => {
  const c = only([long(3, { requestCap: 10 })], "progress-token-sent");
  assert.equal(c.status, "info", c.message);
});

test("the progress checks judge only calls under a progress fault: a call with progress and no such fault gives none", () => {
  const plain = call(1, 0, "slow_report", {}, { id: 1, sse: true, body: stream(2), params: TOKEN });
  assert.deepEqual(checksOf([plain]).filter((c) => c.id.startsWith("progress-")), []);
});

// ---- progress-patience ----

test("progress-patience passes when the client stayed until the answer while progress arrived", () => {
  const c = only([long(10)], "progress-patience");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /stayed on .* while 10 notifications\/progress arrived/);
});

test("progress-patience fails when the client closed the stream before the session's patience while progress kept arriving", () => {
  const c = only([long(2, { clientClosedAtMs: 2_100, durationMs: 2_100, effects: "possible" })], "progress-patience");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /closed the stream on .* after 2100 ms while progress kept arriving \(2 notifications\/progress reached its stream\), before the 5000 ms/);
  assert.deepEqual(c.evidence, [1]);
});

test("progress-patience fails when a 2025-11-25 client cancelled early with notifications/cancelled, though it kept the stream open", () => {
  const x = long(10, { legacy: true, headers: SESSION });
  const cancel = entry({ seq: 2, at: 1_500, method: "notifications/cancelled", notification: true, legacy: true, headers: SESSION, params: { requestId: 1, reason: "timed out" } });
  const c = only([x, cancel], "progress-patience");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /sent notifications\/cancelled \(seq 2\) on .* after 1500 ms/);
  assert.deepEqual(c.evidence, [1, 2]);
});

test("progress-patience passes when the client gave up only after the session's patience", () => {
  const c = only([long(6, { clientClosedAtMs: 6_000, durationMs: 6_000, effects: "possible" })], "progress-patience");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /after 6000 ms \(6 notifications\/progress reached its stream\), no earlier than the 5000 ms/);
});

test("progress-patience is info when no progress reached the stream: there was nothing to be patient with", () => {
  const c = only([noToken({ clientClosedAtMs: 1_000, durationMs: 1_000 })], "progress-patience");
  assert.equal(c.status, "info", c.message);
  assert.match(c.message, /\(it asked for none\)/);
});

// ---- progress-bounded ----

test("progress-bounded passes when the client gave up before the bound", () => {
  const c = only([long(6, { clientClosedAtMs: 6_000, durationMs: 6_000, effects: "possible" })], "progress-bounded");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /after 6000 ms, within the 8000 ms bound/);
});

test("progress-bounded fails when the client sat through the call past the bound", () => {
  const c = only([long(10)], "progress-bounded");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /still waiting on .* after 10005 ms, past the 8000 ms bound: .*SHOULD still enforce a maximum/);
});

test("progress-bounded fails when the client gave up only after the bound", () => {
  const c = only([long(9, { clientClosedAtMs: 9_000, durationMs: 9_000, effects: "possible" })], "progress-bounded");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /after 9000 ms, past the 8000 ms bound/);
});

test("progress-bounded is info when the call was answered before the bound", () => {
  const quick = long(3, { fault: { ...LONG, ms: 3_000 }, durationMs: 3_005 });
  const c = only([quick], "progress-bounded");
  assert.equal(c.status, "info", c.message);
  assert.match(c.message, /answered after 3005 ms, before the 8000 ms bound/);
});

test("progress-bounded is info when the server's deadline cut the call before the bound", () => {
  const c = only([long(5, { cutByDeadline: true, durationMs: 5_000 })], "progress-bounded");
  assert.equal(c.status, "info", c.message);
  assert.match(c.message, /response deadline cut .* before the 8000 ms bound/);
});
