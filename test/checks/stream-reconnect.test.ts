import { test } from "node:test";
import assert from "node:assert/strict";
import { timeline } from "../../src/checks/exchange.ts";
import { MAX_EMPTY_RECONNECTS, MAX_REFUSED_RECONNECTS, streamReconnectChecks } from "../../src/checks/stream-reconnect.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { T0 } from "./entries.ts";

// The reconnect checks on hand-built journals of standalone GETs: each rule where it passes and where it fails.
// test/checks/stream-reconnect-api.test.ts judges the same rules from real clients over loopback.

interface Get {
  at: number;
  durationMs?: number;
  status?: number;
  /** Event ids the stream sent, in order ("" for an empty id: line); events without an id are `null`. */
  ids?: (string | null)[];
  retry?: number;
  lastEventId?: string;
  session?: string;
  /** Whether the scenario's fault answered it (default: yes). */
  faulted?: boolean;
}

function journal(gets: Get[]): JournalEntry[] {
  return gets.map((g, i) => {
    const status = g.status ?? 200;
    const events = (g.ids ?? []).map((id, k) => ({ ...(id !== null ? { id } : {}), event: "message", data: `{"n":${k}}`, ...(k === 0 && g.retry !== undefined ? { retry: g.retry } : {}) }));
    const headers = { accept: "text/event-stream", "mcp-session-id": g.session ?? "s1", ...(g.lastEventId !== undefined ? { "last-event-id": g.lastEventId } : {}) };
    return {
      seq: i + 1,
      time: new Date(T0 + g.at).toISOString(),
      durationMs: g.durationMs ?? 10,
      request: { method: "GET", url: "/s/test/mcp", headers, body: { text: "", bytes: 0, truncated: false } },
      response: { status, headers: status === 200 ? { "content-type": "text/event-stream" } : {}, body: { text: "", bytes: 0, truncated: false }, ...(status === 200 ? { sseEvents: events } : {}) },
      rpc: { kind: "invalid" },
      mcpSessionId: g.session ?? "s1",
      scenario: "streams.listen_close",
      ...(g.faulted === false ? {} : { fault: { kind: status === 200 ? "listen_stream" : "http_status", rule: "test", detail: {} } }),
    } as JournalEntry;
  });
}

const judged = (gets: Get[]) => Object.fromEntries(streamReconnectChecks(timeline(journal(gets))).map((c) => [c.id, c]));

// ---- stream-resumed-latest-id ----

test("a reconnect that sends the latest id of the streams before passes stream-resumed-latest-id", () => {
  const c = judged([{ at: 0, ids: ["a-0", "a-1"] }, { at: 1_000, lastEventId: "a-1", ids: [null] }, { at: 2_000, lastEventId: "a-1" }]);
  assert.equal(c["stream-resumed-latest-id"]?.status, "pass");
});

test("a reconnect that sends an earlier id fails, and one that sends an id no stream sent fails too", () => {
  assert.equal(judged([{ at: 0, ids: ["a-0", "a-1"] }, { at: 1_000, lastEventId: "a-0" }])["stream-resumed-latest-id"]?.status, "fail");
  const made = judged([{ at: 0, ids: ["a-0"] }, { at: 1_000, lastEventId: "zzz" }])["stream-resumed-latest-id"]!;
  assert.equal(made.status, "fail");
  assert.match(made.message, /an id no stream sent/);
});

test("no Last-Event-ID warns from a client that never resumed, and fails from one that resumed before", () => {
  assert.equal(judged([{ at: 0, ids: ["a-0"] }, { at: 1_000 }])["stream-resumed-latest-id"]?.status, "warning");
  const forgot = judged([{ at: 0, ids: ["a-0"] }, { at: 1_000, lastEventId: "a-0", ids: [null] }, { at: 2_000 }])["stream-resumed-latest-id"]!;
  assert.equal(forgot.status, "fail");
  assert.deepEqual(forgot.evidence, [2, 3]);
});

test("after an empty id: line, no Last-Event-ID passes and the id before it warns", () => {
  assert.equal(judged([{ at: 0, ids: ["a-0", ""] }, { at: 1_000 }])["stream-resumed-latest-id"]?.status, "pass");
  assert.equal(judged([{ at: 0, ids: ["a-0", ""] }, { at: 1_000, lastEventId: "a-0" }])["stream-resumed-latest-id"]?.status, "warning");
});

// ---- stream-reconnect-backoff ----

test("a reconnect that waits the stream's retry: passes, and one that comes sooner fails", () => {
  assert.equal(judged([{ at: 0, durationMs: 10, ids: ["a-0"], retry: 500 }, { at: 520, lastEventId: "a-0" }])["stream-reconnect-backoff"]?.status, "pass");
  const early = judged([{ at: 0, durationMs: 10, ids: ["a-0"], retry: 500 }, { at: 200, lastEventId: "a-0" }])["stream-reconnect-backoff"]!;
  assert.equal(early.status, "fail");
  assert.match(early.message, /sooner than the stream's retry: 500/);
});

test("without retry:, a reconnect within 100 ms fails, and waits that shrink between refusals fail", () => {
  assert.equal(judged([{ at: 0, ids: ["a-0"] }, { at: 20, lastEventId: "a-0" }])["stream-reconnect-backoff"]?.status, "fail");
  const growing = [{ at: 0, ids: ["a-0"] }, { at: 1_010, status: 503 }, { at: 2_520, status: 503 }, { at: 4_800, status: 503 }];
  assert.equal(judged(growing)["stream-reconnect-backoff"]?.status, "pass");
  const shrinking = [{ at: 0, ids: ["a-0"] }, { at: 1_010, status: 503 }, { at: 2_520, status: 503 }, { at: 2_900, status: 503 }];
  assert.equal(judged(shrinking)["stream-reconnect-backoff"]?.status, "fail");
});

// ---- stream-reconnect-bounded ----

test(`up to ${MAX_REFUSED_RECONNECTS} refused reconnects in a row pass, one more fails`, () => {
  const refusals = (n: number): Get[] => [{ at: 0, ids: ["a-0"] }, ...Array.from({ length: n }, (_, i) => ({ at: 1_000 * (i + 1), status: 409, lastEventId: "a-0" }))];
  assert.equal(judged(refusals(MAX_REFUSED_RECONNECTS))["stream-reconnect-bounded"]?.status, "pass");
  const over = judged(refusals(MAX_REFUSED_RECONNECTS + 1))["stream-reconnect-bounded"]!;
  assert.equal(over.status, "fail");
  assert.match(over.message, new RegExp(`${MAX_REFUSED_RECONNECTS + 1} reconnects in a row`));
});

test(`more than ${MAX_EMPTY_RECONNECTS} reconnects to empty streams warn; a stream with events ends a run`, () => {
  const empties = (n: number): Get[] => Array.from({ length: n + 1 }, (_, i) => ({ at: 1_000 * i }));
  assert.equal(judged(empties(MAX_EMPTY_RECONNECTS + 1))["stream-reconnect-bounded"]?.status, "warning");
  const broken = [...empties(6), { at: 7_000, ids: ["b-0"] }, ...empties(6).map((g) => ({ ...g, at: g.at + 8_000 }))];
  assert.equal(judged(broken)["stream-reconnect-bounded"]?.status, "pass");
});

test("a 405 is no refusal: the server offers no stream", () => {
  const c = judged([{ at: 0, ids: ["a-0"] }, ...Array.from({ length: 8 }, (_, i) => ({ at: 1_000 * (i + 1), status: 405, lastEventId: "a-0", faulted: false }))]);
  assert.equal(c["stream-reconnect-bounded"], undefined);
});

// ---- grouping ----

test("two clients' GETs interleaved are judged apart, and a client whose GETs met no fault is not judged", () => {
  const c = judged([
    { at: 0, ids: ["a-0"], session: "s1" },
    { at: 10, ids: ["b-0"], session: "s2" },
    { at: 1_000, lastEventId: "a-0", session: "s1" },
    { at: 1_010, lastEventId: "b-0", session: "s2" },
    { at: 2_000, ids: ["c-0"], session: "s3", faulted: false },
    { at: 2_020, lastEventId: "zzz", session: "s3", faulted: false },
  ]);
  assert.equal(c["stream-resumed-latest-id"]?.status, "pass");
  assert.deepEqual(c["stream-resumed-latest-id"]?.evidence, [1, 2, 3, 4]);
});
