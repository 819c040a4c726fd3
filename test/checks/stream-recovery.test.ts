import { test } from "node:test";
import assert from "node:assert/strict";
import { runChecks, type Check } from "../../src/checks/index.ts";
import { SILENCE_MS, streamRecoveryChecks } from "../../src/checks/stream-recovery.ts";
import { timeline } from "../../src/checks/exchange.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, cutCall, OK_RESULT, resumeGet, SESSION, T0 } from "./entries.ts";

const PRIMED = "id: e-1\nretry: 500\ndata: \n\n";
/** Cut POSTs are 5 ms long: a stream that starts at 0 ends at 5. */
const checks = (entries: JournalEntry[], now = T0 + 60_000) => streamRecoveryChecks(timeline(entries), now);
function find(all: Check[], id: string): Check {
  const found = all.find((c) => c.id === id);
  assert.ok(found, `no ${id} in ${JSON.stringify(all, null, 1)}`);
  return found;
}

test("a client that resumes a cut stream with GET and the stream's last event id passes stream-resumed", () => {
  const resumed = find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 600, "e-1")]), "stream-resumed");
  assert.equal(resumed.status, "pass", resumed.message);
  assert.match(resumed.message, /resumed with GET and Last-Event-ID "e-1" 595 ms later \(seq 2\), and got the response/);
  assert.deepEqual(resumed.evidence, [1, 2]);
});

test("resuming with an event id the stream never sent fails stream-resumed", () => {
  const resumed = find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 600, "made-up", false)]), "stream-resumed");
  assert.equal(resumed.status, "fail");
  assert.match(resumed.message, /Last-Event-ID "made-up" \(seq 2\), an id no cut stream sent/);
});

test("resuming from an earlier event id than the stream's last is a warning", () => {
  const events = "id: e-0\ndata: \n\nid: e-1\ndata: \n\n";
  const resumed = find(checks([cutCall(1, 0, "echo", events), resumeGet(2, 600, "e-0")]), "stream-resumed");
  assert.equal(resumed.status, "warning", resumed.message);
});

test("re-sending the call by POST instead of resuming a resumable stream is a warning", () => {
  const resumed = find(checks([cutCall(1, 0, "echo", PRIMED), call(2, 600, "echo", { text: "hi" }, { legacy: true, headers: SESSION })]), "stream-resumed");
  assert.equal(resumed.status, "warning");
  assert.match(resumed.message, /re-sent the call by POST 595 ms later \(seq 2\) instead of resuming with GET and Last-Event-ID "e-1"/);
});

test("going on to other requests without fetching the kept response fails stream-resumed", () => {
  const resumed = find(checks([cutCall(1, 0, "echo", PRIMED), call(2, 600, "echo", { text: "other" }, { legacy: true, headers: SESSION })]), "stream-resumed");
  assert.equal(resumed.status, "fail");
  assert.match(resumed.message, /without resuming the stream or re-sending the call/);
});

test("stream-retry-honoured passes a resume after the stream's retry and fails one before it", () => {
  assert.equal(find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 505, "e-1")]), "stream-retry-honoured").status, "pass");
  const early = find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 105, "e-1")]), "stream-retry-honoured");
  assert.equal(early.status, "fail");
  assert.equal(early.message, "The client resumed tools/call echo 100 ms after the stream ended, sooner than the stream's retry: 500.");
});

test("a stream without retry: has no stream-retry-honoured check", () => {
  const all = checks([cutCall(1, 0, "echo", "id: e-1\ndata: \n\n"), resumeGet(2, 50, "e-1")]);
  assert.equal(all.find((c) => c.id === "stream-retry-honoured"), undefined);
  assert.equal(find(all, "stream-resumed").status, "pass");
});

test("after a cut without event ids, re-sending an idempotent call passes cut-call-resent", () => {
  const resent = find(checks([cutCall(1, 0, "echo", ""), call(2, 300, "echo", { text: "hi" }, { legacy: true, headers: SESSION })]), "cut-call-resent");
  assert.equal(resent.status, "pass");
  assert.equal(resent.message, "After the stream of tools/call echo (seq 1) ended before the response, with no event id to resume from, the client re-sent the call 295 ms later (seq 2).");
});

test("after a cut without event ids, moving on without re-sending an idempotent call is a warning", () => {
  const resent = find(checks([cutCall(1, 0, "echo", ""), call(2, 300, "echo", { text: "other" }, { legacy: true, headers: SESSION })]), "cut-call-resent");
  assert.equal(resent.status, "warning");
});

test("a cut call of a tool that is not idempotent is left to non-idempotent-not-replayed, not cut-call-resent", () => {
  const order = { item: "widget", quantity: 1 };
  const all = checks([cutCall(1, 0, "place_order", "", order), call(2, 300, "place_order", order, { legacy: true, headers: SESSION })]);
  assert.equal(all.find((c) => c.id === "cut-call-resent"), undefined);
});

test("request-after-cut warns when the journal shows no further request within the stated time, and says so in those words", () => {
  const silent = find(checks([cutCall(1, 0, "echo", "")], T0 + 5 + SILENCE_MS + 2_000), "request-after-cut");
  assert.equal(silent.status, "warning");
  assert.match(silent.message, /^The journal shows no further request within 10\.0 s after the stream of tools\/call echo \(seq 1\) ended before the response \(12\.0 s so far\)/);
});

test("request-after-cut says nothing until the stated time has passed", () => {
  assert.equal(checks([cutCall(1, 0, "echo", "")], T0 + 5 + SILENCE_MS - 1).find((c) => c.id === "request-after-cut"), undefined);
});

test("request-after-cut reports a late next request as a warning and a prompt one as a pass", () => {
  const late = find(checks([cutCall(1, 0, "echo", ""), call(2, 5 + SILENCE_MS + 1, "echo", { text: "hi" }, { legacy: true, headers: SESSION })]), "request-after-cut");
  assert.equal(late.status, "warning");
  assert.match(late.message, /the next one \(seq 2, tools\/call echo\) came 10\.0 s later/);
  assert.equal(find(checks([cutCall(1, 0, "echo", ""), resumeGet(2, 600, "e-1")]), "request-after-cut").status, "pass");
});

test("a stream that delivered its response, or was cut by the response deadline, is not a cut", () => {
  const answered = call(1, 0, "echo", { text: "hi" }, { legacy: true, sse: true, result: OK_RESULT, headers: SESSION });
  const byDeadline = cutCall(2, 10, "echo", "");
  byDeadline.response.cutByDeadline = true;
  assert.deepEqual(checks([answered, byDeadline]), []);
});

test("the stream checks are registered with the others", async () => {
  const ids = (await runChecks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 600, "e-1")])).map((c) => c.id);
  assert.ok(ids.includes("stream-resumed") && ids.includes("stream-retry-honoured") && ids.includes("request-after-cut"), ids.join());
});

test("a GET that resumes another cut stream is not taken for a wrong Last-Event-ID", () => {
  const second = cutCall(2, 10, "echo", "id: e-2\nretry: 500\ndata: \n\n", { text: "two" });
  const resumed = find(checks([cutCall(1, 0, "echo", PRIMED), second, resumeGet(3, 600, "e-2")]), "stream-resumed");
  assert.equal(resumed.status, "fail");
  assert.doesNotMatch(resumed.message, /no cut stream sent/);
  assert.match(resumed.message, /\(seq 1\).*went on \(seq 2/);
});

test("a cancellation of the cut call is named as such, not as the client going on", () => {
  const cancel = call(2, 1_005, "echo", {}, { legacy: true, headers: SESSION });
  cancel.rpc = { method: "notifications/cancelled", kind: "notification" };
  cancel.request.body.text = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "timeout" } });
  const resent = find(checks([cutCall(1, 0, "echo", ""), cancel]), "cut-call-resent");
  assert.equal(resent.message, "After the stream of tools/call echo (seq 1) ended before the response, with no event id to resume from, the client cancelled the call 1000 ms later (seq 2, notifications/cancelled) without re-sending it, although the call is safe to repeat: the journal shows no answer reached it.");
});

test("stream-retry-honoured forgives 50 ms of the journal's clock, and no more", () => {
  // The stream ends at 5 ms and asks for retry: 500.
  assert.equal(find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 455, "e-1")]), "stream-retry-honoured").status, "pass");
  assert.equal(find(checks([cutCall(1, 0, "echo", PRIMED), resumeGet(2, 454, "e-1")]), "stream-retry-honoured").status, "fail");
});
