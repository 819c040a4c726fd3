import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, OK_RESULT } from "./entries.ts";

// inflight-not-amplified (src/checks/concurrency.ts) on hand-built journals: every status, and the edges of the sweep.

const LIMITED = { status: 429, body: "Too Many Requests", responseHeaders: { "retry-after": "1", "content-type": "text/plain" } };

/** A tools/call of echo (argument `n`) that arrived `at` ms after T0 and was answered `ms` later. */
const ok = (seq: number, at: number, ms: number, n = seq) => call(seq, at, "echo", { text: `${n}` }, { durationMs: ms, result: OK_RESULT });
const limited = (seq: number, at: number, n = seq) => call(seq, at, "echo", { text: `${n}` }, { durationMs: 2, ...LIMITED });

function only(entries: JournalEntry[]): Check {
  const found = checksOf(entries).filter((c) => c.id === "inflight-not-amplified");
  assert.equal(found.length, 1, `expected one inflight-not-amplified check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0]!;
}

/** Four calls at once: two held 500 ms, two answered 429 at once. */
const burst = (): JournalEntry[] => [ok(1, 0, 500), ok(2, 1, 500), limited(3, 2), limited(4, 3)];

test("inflight-not-amplified is absent from a journal without a 429", () => {
  assert.equal(checksOf([ok(1, 0, 500), ok(2, 1, 500)]).some((c) => c.id === "inflight-not-amplified"), false);
});

test("inflight-not-amplified is info when the client sent nothing after the first 429", () => {
  const check = only(burst());
  assert.equal(check.status, "info");
  assert.match(check.message, /sent no request after the first 429 \(seq 3, to tools\/call echo\)/);
});

test("inflight-not-amplified passes when the client retried the two limited calls together after the wait, as many at once as before", () => {
  const check = only([...burst(), ok(5, 1_100, 500, 3), ok(6, 1_101, 500, 4)]);
  assert.equal(check.status, "pass");
  assert.match(check.message, /at most 2 requests in flight at once, no more than the 4 before it \(2 requests after it\)/);
  assert.deepEqual(check.evidence, [3, 6]);
});

test("inflight-not-amplified fails when each 429 led to two more calls while the admitted ones still ran", () => {
  // The 429s end at 4 and 5 ms; four calls arrive at 10-13 ms beside the two held until 500 ms: six in flight, four before.
  const check = only([...burst(), ok(5, 10, 300, 3), ok(6, 11, 300, 33), ok(7, 12, 300, 4), ok(8, 13, 300, 44)]);
  assert.equal(check.status, "fail");
  assert.match(check.message, /up to 6 requests in flight at once \(when seq 8, tools\/call echo, arrived\), more than the 4 before it/);
  assert.deepEqual(check.evidence, [3, 8]);
});

test("inflight-not-amplified fails a serial client that goes parallel after a 429: one at a time before, two after", () => {
  const check = only([ok(1, 0, 10), limited(2, 20), ok(3, 1_100, 50, 2), ok(4, 1_101, 50, 5)]);
  assert.equal(check.status, "fail");
  assert.match(check.message, /up to 2 requests in flight at once .* more than the 1 before it/);
});

test("inflight-not-amplified counts a call that arrives in the millisecond another ends as following it, not beside it", () => {
  // The retry arrives at 1_000 ms, exactly when the held call ends: one in flight at a time throughout.
  const check = only([ok(1, 0, 1_000), limited(2, 1), ok(3, 1_000, 50, 2)]);
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /at most 1 request in flight at once, no more than the 2 before it/);
});

test("inflight-not-amplified counts a 429 answered within the millisecond it arrived as sent before itself, not after", () => {
  // Both 429s take 0 ms on the journal's clock: the first ends as it arrives, at the cut. Before: 3 in flight (the two
  // held calls and that 429); after: the other 429 beside the two held ones, 3 again, then the two resent calls.
  const instant = (seq: number, at: number) => call(seq, at, "echo", { text: `${seq}` }, { durationMs: 0, ...LIMITED });
  const check = only([ok(1, 0, 500), ok(2, 1, 500), instant(3, 2), instant(4, 3), ok(5, 1_100, 500, 3), ok(6, 1_101, 500, 4)]);
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /at most 3 requests in flight at once, no more than the 3 before it \(3 requests after it\)/);
});

test("inflight-not-amplified ignores notifications: only JSON-RPC requests are in flight", () => {
  const note = (seq: number, at: number) => entry({ seq, at, method: "notifications/progress", notification: true, params: { progressToken: 1, progress: seq } });
  const check = only([ok(1, 0, 10), limited(2, 20), note(3, 30), note(4, 30), note(5, 31), ok(6, 1_100, 50, 2)]);
  assert.equal(check.status, "pass", check.message);
});

test("inflight-not-amplified reads the first 429 as the one that ended first, not the one that arrived first", () => {
  // Seq 1 arrived first but its 429 came after 900 ms; seq 2's came at 12 ms, and the two calls at 20 ms follow it.
  const slow429 = call(1, 0, "echo", { text: "1" }, { durationMs: 900, ...LIMITED });
  const check = only([slow429, limited(2, 10), ok(3, 20, 100, 2), ok(4, 21, 100, 5)]);
  assert.match(check.message, /the first 429 \(seq 2,/);
  assert.equal(check.status, "fail", check.message);
});

test("inflight-not-amplified does not count a subscriptions/listen stream the client opened after the 429", () => {
  const listen = call(5, 30, "echo", {}, { durationMs: 5_000, sse: true, result: OK_RESULT });
  (listen.rpc as { method?: string }).method = "subscriptions/listen";
  const check = only([ok(1, 0, 10), limited(2, 20), listen, ok(6, 1_100, 50, 2)]);
  assert.equal(check.status, "pass", check.message);
});

test("inflight-not-amplified does not read a serial client as two at once when the journal times its next call a few ms early", () => {
  // Seq 4 arrives 10 ms before seq 3 ended, on the journal's clock: within the slack, so one at a time.
  const check = only([ok(1, 0, 10), limited(2, 20), ok(3, 1_100, 50, 2), ok(4, 1_140, 50, 5)]);
  assert.equal(check.status, "pass", check.message);
});

test("inflight-not-amplified counts requests shorter than the slack at the moment they arrive, together when they arrive together", () => {
  // Before: one call at a time. After: three instant calls in the same millisecond.
  const quick = (seq: number, at: number) => call(seq, at, "echo", { text: `${seq}` }, { durationMs: 3, result: OK_RESULT });
  const check = only([ok(1, 0, 10), limited(2, 20), quick(3, 1_100), quick(4, 1_100), quick(5, 1_100)]);
  assert.equal(check.status, "fail", check.message);
  assert.match(check.message, /up to 3 requests in flight at once/);
});
