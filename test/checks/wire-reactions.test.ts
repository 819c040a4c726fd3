import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import { capture } from "../../src/journal/capture.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput, SESSION, T0 } from "./entries.ts";

// tools-relisted-after-change, cursor-not-looped and elicitation-answered over hand-built journals: each status.

type Json = Record<string, unknown>;

function only(entries: JournalEntry[], id: string): Check {
  const found = checksOf(entries).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0] as Check;
}

function expectCheck(entries: JournalEntry[], id: string, status: Check["status"], message: RegExp, evidence?: number[]): void {
  const c = only(entries, id);
  assert.equal(c.status, status, c.message);
  assert.match(c.message, message);
  if (evidence) assert.deepEqual(c.evidence, evidence);
}

const absent = (entries: JournalEntry[], id: string) => assert.deepEqual(checksOf(entries).filter((c) => c.id === id), []);

/** SSE text carrying `messages`, one event each. */
const events = (...messages: Json[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...m })}\n\n`).join("");

const legacy: Partial<EntryInput> = { legacy: true, headers: SESSION };
const tools = (...names: string[]) => ({ tools: names.map((name) => ({ name, inputSchema: { type: "object" } })) });
const list = (seq: number, at: number, names: string[], rest: Partial<EntryInput> = {}) => entry({ seq, at, method: "tools/list", result: tools(...names), ...legacy, ...rest });
const LIST_CHANGED = { method: "notifications/tools/list_changed", params: {} };

/** trigger_tool_change answered on an SSE stream that says the tool list changed before its result. */
function trigger(seq: number, at: number): JournalEntry {
  const result = { content: [{ type: "text", text: "The catalogue changed." }] };
  return call(seq, at, "trigger_tool_change", {}, { ...legacy, sse: true, id: seq, body: events(LIST_CHANGED, { id: seq, result }) });
}

const BEFORE = ["retiring_tool", "trigger_tool_change", "echo"];
const AFTER = ["added_tool", "trigger_tool_change", "echo"];
const unknownTool = (name: string) => ({ error: { code: -32602, message: `Unknown tool: ${name}` } });

// ---- tools-relisted-after-change ----

test("tools-relisted-after-change passes when the client lists the tools again before calling a changed tool", () => {
  const journal = [list(1, 0, BEFORE), trigger(2, 100), list(3, 200, AFTER), call(4, 300, "added_tool", {}, legacy)];
  expectCheck(journal, "tools-relisted-after-change", "pass", /listed the tools again \(seq 3\)/, [2, 3]);
});

test("tools-relisted-after-change fails when the client calls the retired tool after being told, without listing", () => {
  const journal = [list(1, 0, BEFORE), trigger(2, 100), call(3, 200, "retiring_tool", {}, { ...legacy, ...unknownTool("retiring_tool") })];
  expectCheck(journal, "tools-relisted-after-change", "fail", /called retiring_tool, which the change retired, without listing the tools again \(seq 3, JSON-RPC error -32602\)/, [2, 3]);
});

test("tools-relisted-after-change fails when the client calls a tool it never saw listed, without listing", () => {
  const journal = [list(1, 0, BEFORE), trigger(2, 100), call(3, 200, "added_tool", {}, legacy)];
  expectCheck(journal, "tools-relisted-after-change", "fail", /called added_tool, which was not in the list it had/, [2, 3]);
});

test("tools-relisted-after-change does not count a call of an unchanged tool as a fail", () => {
  const journal = [list(1, 0, BEFORE), trigger(2, 100), call(3, 200, "echo", { text: "hi" }, legacy), list(4, 300, AFTER)];
  expectCheck(journal, "tools-relisted-after-change", "pass", /listed the tools again \(seq 4\)/);
});

test("tools-relisted-after-change is info when nothing follows the notice", () => {
  expectCheck([list(1, 0, BEFORE), trigger(2, 100)], "tools-relisted-after-change", "info", /No tools\/list and no call of a changed tool/, [2]);
});

test("tools-relisted-after-change judges only requests sent after the stream that told the client", () => {
  // A call sent while the notice's stream was still open is not judged: the client may not have read it yet.
  const journal = [list(1, 0, BEFORE), { ...trigger(2, 100), durationMs: 500 }, call(3, 200, "retiring_tool", {}, { ...legacy, ...unknownTool("retiring_tool") })];
  expectCheck(journal, "tools-relisted-after-change", "info", /nothing shows/);
});

test("tools-relisted-after-change reads a 2026-07-28 subscriptions/listen stream as the notice, from its end", () => {
  const listen = entry({ seq: 2, at: 50, durationMs: 150, method: "subscriptions/listen", sse: true, body: events({ method: "notifications/subscriptions/acknowledged", params: {} }, LIST_CHANGED) });
  const journal = [list(1, 0, BEFORE, { legacy: false, headers: {} }), listen, call(3, 300, "retiring_tool", {}, unknownTool("retiring_tool"))];
  expectCheck(journal, "tools-relisted-after-change", "fail", /on the stream of seq 2.*called retiring_tool/, [2, 3]);
});

/** A tools/list whose SSE answer says the list changed and carries the changed list (catalog.mutation's afterListCalls). */
function changingList(seq: number, at: number): JournalEntry {
  return entry({ seq, at, method: "tools/list", ...legacy, sse: true, id: seq, body: events(LIST_CHANGED, { id: seq, result: tools(...AFTER) }) });
}

test("tools-relisted-after-change passes when the notice came on a tools/list answer that carried the changed list", () => {
  const journal = [list(1, 0, BEFORE), changingList(2, 100), call(3, 200, "added_tool", {}, legacy)];
  expectCheck(journal, "tools-relisted-after-change", "pass", /came on the answer to tools\/list \(seq 2\), which carried the changed list/, [2]);
});

test("tools-relisted-after-change fails a call of a tool that the tools/list carrying the notice left out", () => {
  const journal = [list(1, 0, BEFORE), changingList(2, 100), call(3, 200, "retiring_tool", {}, { ...legacy, ...unknownTool("retiring_tool") })];
  expectCheck(journal, "tools-relisted-after-change", "fail", /called retiring_tool, which was not in the list it had/, [2, 3]);
});

test("tools-relisted-after-change is absent when no stream said the tool list changed", () => {
  absent([list(1, 0, BEFORE), call(2, 100, "retiring_tool", {}, legacy)], "tools-relisted-after-change");
});

// ---- cursor-not-looped ----

const page = (seq: number, at: number, cursor?: string, answer: Partial<EntryInput> = { result: tools("echo") }) =>
  entry({ seq, at, method: "tools/list", ...legacy, params: cursor === undefined ? {} : { cursor }, ...answer });
const refused = { error: { code: -32602, message: "Invalid params: cursor has expired" } };

test("cursor-not-looped passes when the client restarts from the first page after a refused cursor", () => {
  const journal = [page(1, 0), page(2, 100, "c2", refused), page(3, 200)];
  expectCheck(journal, "cursor-not-looped", "pass", /restarted from the first page \(seq 3, no cursor\)/, [2, 3]);
});

test("cursor-not-looped passes when the client stops after a refused cursor", () => {
  expectCheck([page(1, 0), page(2, 100, "c2", refused)], "cursor-not-looped", "pass", /stopped paginating/, [2]);
});

test("cursor-not-looped passes a client that restarts a few times, each pass meeting the same refused cursor", () => {
  const journal = [page(1, 0, "c2", refused), page(2, 100), page(3, 200, "c2", refused), page(4, 300)];
  expectCheck(journal, "cursor-not-looped", "pass", /sent the refused cursor 1 more time, within 3/);
});

test("cursor-not-looped fails when the client sends one refused cursor more than three more times", () => {
  const journal = [page(1, 0), ...[2, 3, 4, 5, 6].map((seq) => page(seq, seq * 100, "c2", refused))];
  expectCheck(journal, "cursor-not-looped", "fail", /sent the same refused cursor 4 more times \(more than 3\): it loops/, [2, 3, 4, 5, 6]);
});

test("cursor-not-looped counts the resends of the refused cursor even between restarts", () => {
  const journal = [1, 2, 3, 4, 5].flatMap((n) => [page(2 * n - 1, n * 1000), page(2 * n, n * 1000 + 100, "c2", refused)]);
  expectCheck(journal, "cursor-not-looped", "fail", /4 more times/);
});

test("cursor-not-looped judges a cursor refused with another JSON-RPC error (catalog.pagination's -32603 after page n) alike", () => {
  const failed = { error: { code: -32603, message: "Internal error after page" } };
  expectCheck([page(1, 0), page(2, 100, "c2", failed), page(3, 200)], "cursor-not-looped", "pass", /the -32603 "Internal error after page" .* restarted from the first page/, [2, 3]);
  const journal = [page(1, 0), ...[2, 3, 4, 5, 6].map((seq) => page(seq, seq * 100, "c2", failed))];
  expectCheck(journal, "cursor-not-looped", "fail", /the -32603 .* sent the same refused cursor 4 more times/);
});

test("cursor-not-looped is absent when no cursor was refused", () => {
  absent([page(1, 0), page(2, 100, "c2")], "cursor-not-looped");
  absent([page(1, 0), page(2, 100, undefined, refused)], "cursor-not-looped");
});

// ---- elicitation-answered ----

const CAPS_ELICIT = { elicitation: {} };

/** A legacy initialize that opened MCP session abc123 with `capabilities`. */
function init(seq: number, capabilities: Json): JournalEntry {
  const result = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "faultline", version: "0" } };
  return entry({ seq, at: seq * 10, method: "initialize", legacy: true, params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "c", version: "1" } }, result, responseHeaders: SESSION });
}

const ASK = { id: "elicitation-1", method: "elicitation/create", params: { mode: "form", message: "Approve?", requestedSchema: { type: "object", properties: {} } } };

/** A legacy tools/call whose stream carried elicitation/create (`ask`) and then the tool's result. */
function asked(seq: number, at: number, ask: Json = ASK, rest: Partial<EntryInput> = {}): JournalEntry {
  const result = { content: [{ type: "text", text: "done" }] };
  return call(seq, at, "place_order", { item: "tea" }, { ...legacy, sse: true, id: seq, body: events(ask, { id: seq, result }), durationMs: 200, ...rest });
}

/** The client's POST of a JSON-RPC response (`answer`: result or error) to the server's request `id`. */
function answer(seq: number, at: number, reply: Json, id: unknown = ASK.id): JournalEntry {
  const x = entry({ seq, at, method: "unused", ...legacy, status: 202, body: "" });
  const text = JSON.stringify({ jsonrpc: "2.0", id, ...reply });
  return { ...x, time: new Date(T0 + at).toISOString(), request: { ...x.request, body: capture(text, text.length, 64 * 1024) }, rpc: { id: id as string, kind: "response" } };
}

test("elicitation-answered passes for a legacy elicitation/create answered with an ElicitResult", () => {
  const journal = [init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "accept", content: { approved: true } } })];
  expectCheck(journal, "elicitation-answered", "pass", /answered the form-mode elicitation\/create "elicitation-1" on the stream of seq 2 with action accept \(seq 3\)/, [2, 3]);
});

test("elicitation-answered passes a decline and a cancel", () => {
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "decline" } })], "elicitation-answered", "pass", /action decline/);
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "cancel" } })], "elicitation-answered", "pass", /action cancel/);
});

test("elicitation-answered fails a client that declared elicitation and then answered -32601", () => {
  const journal = [init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { error: { code: -32601, message: "Method not found" } })];
  expectCheck(journal, "elicitation-answered", "fail", /with JSON-RPC error -32601 "Method not found" \(seq 3\) although it declared the elicitation capability \{\} at initialize \(seq 1\)/, [1, 2, 3]);
});

test("elicitation-answered is info for an error from a client that never declared elicitation", () => {
  const journal = [init(1, {}), asked(2, 100), answer(3, 150, { error: { code: -32601, message: "Method not found" } })];
  expectCheck(journal, "elicitation-answered", "info", /had not declared elicitation/);
});

test("elicitation-answered passes -32602 for a URL-mode request the client declared no URL mode for", () => {
  const url = { id: "elicitation-1", method: "elicitation/create", params: { mode: "url", message: "Open", url: "https://x.invalid/", elicitationId: "e1" } };
  const journal = [init(1, { elicitation: { form: {} } }), asked(2, 100, url), answer(3, 150, { error: { code: -32602, message: "URL mode not supported" } })];
  expectCheck(journal, "elicitation-answered", "pass", /refused the url-mode elicitation\/create .* with -32602/);
});

test("elicitation-answered fails an answer that is not an ElicitResult", () => {
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "approve" } })], "elicitation-answered", "fail", /action "approve", not accept, decline or cancel/);
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "accept", content: { a: { b: 1 } } } })], "elicitation-answered", "fail", /content .*not an object of strings/);
});

test("elicitation-answered fails a legacy elicitation/create the client never answered", () => {
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100)], "elicitation-answered", "fail", /never answered the form-mode elicitation\/create "elicitation-1"/, [2]);
});

test("elicitation-answered is info when the client closed the stream without answering", () => {
  const gone = asked(2, 100);
  gone.response.clientClosedAtMs = 20;
  expectCheck([init(1, CAPS_ELICIT), gone], "elicitation-answered", "info", /closed that stream 20 ms after its request/);
});

test("elicitation-answered is info when the client cancelled the call instead of answering", () => {
  const cancel = entry({ seq: 3, at: 150, method: "notifications/cancelled", notification: true, ...legacy, params: { requestId: 2, reason: "timeout" } });
  expectCheck([init(1, CAPS_ELICIT), asked(2, 100), cancel], "elicitation-answered", "info", /the client cancelled tools\/call itself \(notifications\/cancelled, seq 3\)/, [2, 3]);
});

test("elicitation-answered matches the answer by the request's id, not by order", () => {
  const journal = [init(1, CAPS_ELICIT), asked(2, 100), answer(3, 150, { result: { action: "accept" } }, "elicitation-other")];
  expectCheck(journal, "elicitation-answered", "fail", /never answered/);
});

test("elicitation-answered is absent without a server-sent elicitation/create", () => {
  absent([init(1, CAPS_ELICIT), call(2, 100, "echo", { text: "hi" }, legacy)], "elicitation-answered");
});
