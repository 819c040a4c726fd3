import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import { LONG_WAIT_MS } from "../../src/checks/long-wait.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, OK_RESULT, SESSION } from "./entries.ts";

// long-retry-after-not-slept (src/checks/long-wait.ts) on hand-built journals: every status, and the wait hints read.

const ECHO = { text: "hi" };
const limited = (seq: number, at: number, retryAfter = "600", rest = {}) =>
  call(seq, at, "echo", ECHO, { durationMs: 2, status: 429, body: "Too Many Requests", responseHeaders: { "retry-after": retryAfter, "content-type": "text/plain" }, ...rest });
const ok = (seq: number, at: number, args = ECHO) => call(seq, at, "echo", args, { result: OK_RESULT });

function only(entries: JournalEntry[]): Check {
  const found = checksOf(entries).filter((c) => c.id === "long-retry-after-not-slept");
  assert.equal(found.length, 1, `expected one long-retry-after-not-slept check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0]!;
}

test("long-retry-after-not-slept is absent when the Retry-After is under 600 s", () => {
  assert.equal(LONG_WAIT_MS, 600_000);
  assert.equal(checksOf([limited(1, 0, "599")]).some((c) => c.id === "long-retry-after-not-slept"), false);
});

test("long-retry-after-not-slept fails a client that resent the call once the 600 s were over: it slept through the wait", () => {
  const check = only([limited(1, 0), ok(2, 600_010)]);
  assert.equal(check.status, "fail");
  assert.match(check.message, /Resent tools\/call echo \(seq 2\) 600 s after a 429 to tools\/call echo \(seq 1\) that asked for Retry-After: 600 s .*slept through a wait of 600 s/);
  assert.deepEqual(check.evidence, [1, 2]);
  assert.equal(check.retries?.[0]?.retryOf, 1);
});

test("long-retry-after-not-slept reads an HTTP-date a day ahead, and retry-after-ms, as long waits", () => {
  const date = limited(1, 0, "Sat, 01 Aug 2026 10:10:00 GMT", { responseHeaders: { "retry-after": "Sat, 01 Aug 2026 10:10:00 GMT", date: "Sat, 01 Aug 2026 10:00:00 GMT" } });
  assert.equal(only([date, ok(2, 600_100)]).status, "fail");
  const ms = limited(1, 0, "1", { responseHeaders: { "retry-after-ms": "900000" } });
  assert.match(only([ms]).message, /retry-after-ms: 900000/);
});

test("long-retry-after-not-slept is info when the client resent before the wait: http-retry-after-honoured judges that", () => {
  const check = only([limited(1, 0), ok(2, 30_000)]);
  assert.equal(check.status, "info");
  assert.match(check.message, /before the wait was over: http-retry-after-honoured judges that/);
  assert.equal(checksOf([limited(1, 0), ok(2, 30_000)]).find((c) => c.id === "http-retry-after-honoured")?.status, "fail");
});

test("long-retry-after-not-slept passes a 2025-11-25 client that ended its MCP session after the 429 without resending", () => {
  const del = entry({ seq: 2, at: 50, method: undefined, legacy: true, headers: SESSION, status: 204 });
  (del.request as { method: string }).method = "DELETE";
  const check = only([limited(1, 0, "600", { legacy: true, headers: SESSION }), del]);
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /ended its MCP session \(DELETE, seq 2\) 0 s later and never resent the call/);
});

test("long-retry-after-not-slept does not take a closed GET stream for a stop: the server times a close by its next write", () => {
  const e = entry({ seq: 1, at: 0, legacy: true, headers: SESSION, sse: true, body: ": keep-alive\n\n", durationMs: 15_000, clientClosedAtMs: 15_000 });
  (e.request as { method: string }).method = "GET";
  const check = only([e, limited(2, 100, "600", { legacy: true, headers: SESSION })]);
  assert.equal(check.status, "info", check.message);
});

test("long-retry-after-not-slept passes when the journal goes on past the wait without a resend", () => {
  const check = only([limited(1, 0), ok(2, 700_000, { text: "other" })]);
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /goes on 100 s past the wait with no resend/);
});

test("long-retry-after-not-slept is info when the journal ends before the wait with no resend and no stop: it cannot tell", () => {
  const check = only([limited(1, 0), ok(2, 5_000, { text: "other" })]);
  assert.equal(check.status, "info");
  assert.match(check.message, /sent 1 other request and had not resent the call by the journal's end, 5 s later: the journal cannot tell/);
  assert.match(only([limited(1, 0)]).message, /sent nothing more/);
});

test("long-retry-after-not-slept warns when the journal cut the limited request's body", () => {
  const check = only([limited(1, 0, "600", { params: { name: "echo", arguments: { text: "x".repeat(200) } }, requestCap: 40 })]);
  assert.equal(check.status, "warning", check.message);
});

test("long-retry-after-not-slept does not count a DELETE that came before the 429 as stopping after it", () => {
  // Of the same session id, as a client that reuses an ended id (or a journal out of order) would show.
  const del = entry({ seq: 1, at: 0, legacy: true, headers: SESSION, status: 204 });
  (del.request as { method: string }).method = "DELETE";
  const check = only([del, limited(2, 100, "600", { legacy: true, headers: SESSION })]);
  assert.equal(check.status, "info", check.message);
});

test("long-retry-after-not-slept does not take the DELETE of another MCP session for the client stopping", () => {
  const del = entry({ seq: 2, at: 50, legacy: true, headers: { "mcp-session-id": "other" }, status: 204 });
  (del.request as { method: string }).method = "DELETE";
  const check = only([limited(1, 0, "600", { legacy: true, headers: SESSION }), del]);
  assert.equal(check.status, "info", check.message);
});
