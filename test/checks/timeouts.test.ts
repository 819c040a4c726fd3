import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import { UNBOUNDED_WAIT_MS } from "../../src/checks/timeouts.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput, SESSION } from "./entries.ts";

// timeout-client-bounded and timeout-cancelled (src/checks/timeouts.ts), and non-idempotent-not-replayed after a
// timeout, on hand-built journals: every status of each.

const ORDER = { item: "widget", quantity: 2 };
const STALL = { kind: "stall_stream", ms: 5_000 };
const HANG = { kind: "hang", ms: 120_000, keepAliveMs: 15_000 };

function only(entries: JournalEntry[], id: string): Check {
  const found = checksOf(entries).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0]!;
}

/** A tools/call whose SSE stream the client closed after `closedAt` ms, having been sent only the stall's comment. */
function left(seq: number, at: number, closedAt: number, rest: Partial<EntryInput> = {}): JournalEntry {
  return call(seq, at, "place_order", ORDER, { sse: true, cut: true, body: ": faultline stall begins\n\n", durationMs: closedAt, clientClosedAtMs: closedAt, fault: STALL, effects: "none", ...rest });
}

/** A legacy notifications/cancelled for `requestId` on the legacy session. */
const cancelled = (seq: number, at: number, requestId: number, headers: Record<string, string> = SESSION) =>
  entry({ seq, at, method: "notifications/cancelled", notification: true, legacy: true, headers, params: { requestId, reason: "timeout" } });

// ---- timeout-client-bounded ----

test("timeout-client-bounded passes when the client closed the stalled stream itself, naming when and how long the stall was", () => {
  const c = only([left(1, 0, 800)], "timeout-client-bounded");
  assert.equal(c.status, "pass", c.message);
  assert.equal(c.message, "The client ended tools/call place_order (seq 1) under a silent stream of 5000 ms itself, closing the stream after 800 ms.");
  assert.deepEqual(c.evidence, [1]);
});

test("timeout-client-bounded fails when the client waited until the server's response deadline cut the answer", () => {
  const cut = call(1, 0, "place_order", ORDER, { sse: true, cut: true, body: ": keep-alive\n\n", durationMs: 600_000, cutByDeadline: true, fault: { ...HANG, ms: 900_000 } });
  const c = only([cut], "timeout-client-bounded");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /until the server's response deadline cut it: it has no timeout of its own/);
});

test("timeout-client-bounded fails when the client sat through a hang of the documented bound without giving up", () => {
  const sat = call(1, 0, "place_order", ORDER, { sse: true, cut: true, body: ": keep-alive\n\n", durationMs: UNBOUNDED_WAIT_MS, fault: HANG, effects: "none" });
  const c = only([sat], "timeout-client-bounded");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /sat through .* for 120000 ms without giving up: no timeout of 120 s or less/);
});

test("timeout-client-bounded is info when a short stall ended by itself before any client timeout could show", () => {
  const answered = call(1, 0, "place_order", ORDER, { durationMs: 5_010, fault: { kind: "delay", ms: 5_000 }, effects: "ran" });
  const c = only([answered], "timeout-client-bounded");
  assert.equal(c.status, "info", c.message);
  assert.match(c.message, /ended by itself after 5010 ms.*the journal cannot tell whether it has a timeout/);
});

test("timeout-client-bounded judges only the timeout faults: another fault, or none, gives no such check", () => {
  const other = call(1, 0, "place_order", ORDER, { status: 503, fault: { kind: "http_status", status: 503 }, effects: "none" });
  assert.deepEqual(checksOf([other, call(2, 100, "echo", { text: "hi" })]).filter((c) => c.id.startsWith("timeout-")), []);
});

// ---- timeout-cancelled ----

test("timeout-cancelled passes in 2026-07-28 when the client closed the stream: closing it is the cancellation", () => {
  const c = only([left(1, 0, 800)], "timeout-cancelled");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /closing its stream after 800 ms: in 2026-07-28 closing the stream is the cancellation/);
});

test("timeout-cancelled passes in 2025-11-25 when the client sent notifications/cancelled with the abandoned request's id", () => {
  const entries = [left(1, 0, 800, { legacy: true, headers: SESSION, id: 7 }), cancelled(2, 805, 7)];
  const c = only(entries, "timeout-cancelled");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /sent notifications\/cancelled for request id 7 \(seq 2\)/);
  assert.deepEqual(c.evidence, [1, 2]);
});

test("timeout-cancelled warns in 2025-11-25 when the client closed the stream and sent no notifications/cancelled", () => {
  const c = only([left(1, 0, 800, { legacy: true, headers: SESSION, id: 7 })], "timeout-cancelled");
  assert.equal(c.status, "warning", c.message);
  assert.match(c.message, /sent no notifications\/cancelled with requestId 7: .* the client SHOULD send it/);
});

test("timeout-cancelled warns in 2025-11-25 when the notifications/cancelled names another request, or another session", () => {
  assert.equal(only([left(1, 0, 800, { legacy: true, headers: SESSION, id: 7 }), cancelled(2, 805, 8)], "timeout-cancelled").status, "warning");
  assert.equal(only([left(1, 0, 800, { legacy: true, headers: SESSION, id: 7 }), cancelled(2, 805, 7, { "mcp-session-id": "other" })], "timeout-cancelled").status, "warning");
});

test("timeout-cancelled judges nothing when the client read the response to its end", () => {
  const answered = call(1, 0, "place_order", ORDER, { sse: true, durationMs: 5_010, fault: STALL, effects: "ran", legacy: true, headers: SESSION });
  assert.deepEqual(checksOf([answered]).filter((c) => c.id === "timeout-cancelled"), []);
});

// ---- a resend after a timeout, judged by the call's effects ----

test("non-idempotent-not-replayed fails a resend after the client abandoned a call whose tool ran", () => {
  const drip = call(1, 0, "place_order", ORDER, { body: '{"jsonrpc":"2.0","id":1,"res', durationMs: 3_000, clientClosedAtMs: 3_000, fault: { kind: "drip", chunkBytes: 8, intervalMs: 1_000 }, effects: "ran" });
  const c = only([drip, call(2, 3_100, "place_order", ORDER)], "non-idempotent-not-replayed");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /100 ms after no answer \(the client closed the stream 3000 ms in\) to place_order: a blind replay .*the first attempt ran the tool/);
});

test("non-idempotent-not-replayed passes a resend after the client abandoned a stall whose tool never ran", () => {
  const c = only([left(1, 0, 800), call(2, 900, "place_order", ORDER)], "non-idempotent-not-replayed");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /after no answer \(the client closed the stream 800 ms in\) to place_order: not a risky replay, since the tool never ran the first time/);
});

test("non-idempotent-not-replayed judges a call the response deadline ended with no answer as failed, by its effects", () => {
  const cut = call(1, 0, "place_order", ORDER, { body: "", durationMs: 600_000, cutByDeadline: true, fault: { kind: "delay", ms: 900_000 }, effects: "possible" });
  const c = only([cut, call(2, 600_100, "place_order", ORDER)], "non-idempotent-not-replayed");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /after no answer before the response deadline to place_order: a blind replay .*may have run the tool/);
});
