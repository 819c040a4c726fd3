import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, initialize, MODERN } from "./entries.ts";

// bad-answer-handled, session-id-refusal-handled and version-renegotiated's "gave up", on hand-built journals: one
// test for each status each check can give.

/** The entry as the recorder journals a fault the scenario performed on it. */
function faulted(e: JournalEntry, kind: string, variant?: string): JournalEntry {
  return { ...e, fault: { kind, rule: "test", detail: { kind, ...(variant ? { variant } : {}) } } };
}

function only(entries: JournalEntry[], id: string): Check {
  const found = checksOf(entries).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0] as Check;
}

function expectCheck(entries: JournalEntry[], id: string, status: Check["status"], message?: RegExp, evidence?: number[]): Check {
  const c = only(entries, id);
  assert.equal(c.status, status, c.message);
  if (message) assert.match(c.message, message);
  if (evidence) assert.deepEqual(c.evidence, evidence);
  return c;
}

const ORDER = { item: "widget", quantity: 2 };
const ECHO = { text: "hi" };
const NOT_JSON = "{jsonrpc: 2.0, id: oops";

/** A tools/call whose answer was spoiled by a fault, with what the server says the tool did. */
function spoiled(seq: number, at: number, tool: string, args: Record<string, unknown>, kind: string, effects?: JournalEntry["effects"]): JournalEntry {
  const rest = kind === "malformed"
    ? { body: NOT_JSON, responseHeaders: { "content-type": "application/json" } }
    : { result: kind === "bad_result" ? { resultType: "complete", content: { type: "text", text: "ok" } } : { content: [{ type: "text", text: "ok" }] } };
  const variant = kind === "malformed" ? "invalid_json" : kind === "bad_result" ? "content_not_array" : "wrong_id";
  return faulted(call(seq, at, tool, args, { ...rest, ...(effects ? { effects } : {}) }), kind, variant);
}

// ---- bad-answer-handled ----

test("bad-answer-handled fails a blind resend of place_order after an envelope fault whose call ran the tool", () => {
  expectCheck(
    [spoiled(1, 0, "place_order", ORDER, "envelope", "ran"), call(2, 50, "place_order", ORDER, { effects: "ran" })],
    "bad-answer-handled",
    "fail",
    /tools\/call place_order was sent again with the same arguments .* \(seq 2\): a blind resend of place_order, which is not idempotent \(the first attempt ran the tool/,
    [1, 2],
  );
});

test("bad-answer-handled judges a tool without annotations by MCP's defaults: its blind resend fails", () => {
  expectCheck([spoiled(1, 0, "send_mail", { to: "u" }, "bad_result", "ran"), call(2, 50, "send_mail", { to: "u" })], "bad-answer-handled", "fail", /not idempotent/);
});

test("bad-answer-handled passes a resend of a read-only tool after a malformed answer", () => {
  expectCheck([spoiled(1, 0, "echo", ECHO, "malformed", "none"), call(2, 50, "echo", ECHO)], "bad-answer-handled", "pass", /a safe resend, since echo is declared read-only or idempotent/, [1, 2]);
});

test("bad-answer-handled passes a resend of place_order when the tool never ran the first time", () => {
  expectCheck([spoiled(1, 0, "place_order", ORDER, "malformed", "none"), call(2, 50, "place_order", ORDER)], "bad-answer-handled", "pass", /the tool never ran the first time/);
});

test("bad-answer-handled passes a resend of a request that calls no tool", () => {
  const list = (seq: number, at: number) => entry({ seq, at, method: "tools/list", result: { resultType: "complete", tools: [] } });
  const bad = faulted({ ...list(1, 0), response: { ...list(1, 0).response, body: { text: NOT_JSON, bytes: NOT_JSON.length, truncated: false } } }, "malformed", "truncated_json");
  expectCheck([bad, list(2, 50)], "bad-answer-handled", "pass", /since tools\/list does not call a tool/);
});

test("bad-answer-handled warns when the journal does not say whether the non-idempotent tool ran", () => {
  expectCheck([spoiled(1, 0, "place_order", ORDER, "envelope"), call(2, 50, "place_order", ORDER)], "bad-answer-handled", "warning", /does not say whether the first attempt ran place_order/);
});

test("bad-answer-handled passes a client that moved on to other requests", () => {
  expectCheck(
    [spoiled(1, 0, "place_order", ORDER, "envelope", "ran"), call(2, 50, "echo", ECHO)],
    "bad-answer-handled",
    "pass",
    /did not send it again and moved on to tools\/call echo \(seq 2\)/,
    [1, 2],
  );
});

test("bad-answer-handled passes a resend with changed arguments", () => {
  expectCheck([spoiled(1, 0, "place_order", ORDER, "envelope", "ran"), call(2, 50, "place_order", { item: "widget", quantity: 3 })], "bad-answer-handled", "pass", /resent tools\/call place_order with changed arguments/);
});

test("bad-answer-handled is info when the client sent nothing more, and says so", () => {
  expectCheck(
    [call(1, 0, "echo", ECHO), spoiled(2, 50, "place_order", ORDER, "malformed", "none")],
    "bad-answer-handled",
    "info",
    /^The client did not resend tools\/call place_order after the malformed answer to tools\/call place_order \(seq 2: invalid_json, read as an unusable response \(MALFORMED_JSON\)\), and then sent nothing more: the journal cannot tell whether it gave up or had finished\.$/,
    [2],
  );
});

test("bad-answer-handled fails a loop of more than three resends of a safe call, and passes three", () => {
  const loop = (n: number) => Array.from({ length: n + 1 }, (_, i) => spoiled(i + 1, i * 20, "echo", ECHO, "malformed", "none"));
  expectCheck(loop(4), "bad-answer-handled", "fail", /was sent again with the same arguments 4 times in a row \(a loop: at most 3 expected\)/, [1, 2, 3, 4, 5]);
  expectCheck(loop(3), "bad-answer-handled", "pass", /a safe resend/);
});

test("bad-answer-handled ignores faults that do not spoil the answer's reading", () => {
  const refused = faulted(call(1, 0, "place_order", ORDER, { error: { code: -32603, message: "Internal error" }, effects: "none" }), "jsonrpc_error");
  assert.deepEqual(checksOf([refused, call(2, 50, "place_order", ORDER)]).filter((c) => c.id === "bad-answer-handled"), []);
});

// ---- session-id-refusal-handled ----

const SID = "sess0000000000000000000000000001";
const NEW_SID = "sess0000000000000000000000000002";
const REFUSAL = { status: 400, error: { code: -32600, message: "Bad Request: Mcp-Session-Id header is required" }, result: undefined } as const;

function legacyCall(seq: number, at: number, sessionId: string | undefined, version = "2025-11-25", rest: Parameters<typeof call>[4] = {}): JournalEntry {
  const headers: Record<string, string> = { "mcp-protocol-version": version, ...(sessionId ? { "mcp-session-id": sessionId } : {}) };
  const e = call(seq, at, "echo", ECHO, { legacy: true, headers, result: { content: [] }, ...rest });
  return { ...e, protocolVersion: version };
}
const refused = (seq: number, at: number, version = "2025-11-25") => legacyCall(seq, at, SID, version, REFUSAL);

for (const version of ["2025-11-25", "2025-06-18"]) {
  test(`session-id-refusal-handled passes a ${version} client that resent with the same session id`, () => {
    expectCheck([refused(1, 0, version), legacyCall(2, 50, SID, version)], "session-id-refusal-handled", "pass", /resent it with the same session id: tools\/call echo \(seq 2\) got a tool result\./, [1, 2]);
  });

  test(`session-id-refusal-handled fails a ${version} client that went on without any session id`, () => {
    expectCheck([refused(1, 0, version), legacyCall(2, 50, undefined, version)], "session-id-refusal-handled", "fail", /sent tools\/call echo \(seq 2\) without any Mcp-Session-Id and without initializing again/);
  });
}

test("session-id-refusal-handled passes a client that initialized again and used the new id", () => {
  expectCheck(
    [refused(1, 0), initialize(2, 20, { newSessionId: NEW_SID }), legacyCall(3, 40, NEW_SID)],
    "session-id-refusal-handled",
    "pass",
    /initialized again \(seq 2\) and used the new session id \(tools\/call echo, seq 3\)/,
    [1, 2, 3],
  );
});

test("session-id-refusal-handled fails a client that initialized again and then sent no session id", () => {
  expectCheck([refused(1, 0), initialize(2, 20, { newSessionId: NEW_SID }), legacyCall(3, 40, undefined)], "session-id-refusal-handled", "fail", /initialized again \(seq 2\) but sent tools\/call echo \(seq 3\) without any Mcp-Session-Id/);
});

test("session-id-refusal-handled fails a loop of more than three refused resends, and passes three", () => {
  const loop = (n: number) => Array.from({ length: n + 1 }, (_, i) => refused(i + 1, i * 20));
  expectCheck(loop(4), "session-id-refusal-handled", "fail", /4 times that were refused the same way \(a loop: at most 3 expected\)/, [1, 2, 3, 4, 5]);
  expectCheck(loop(3), "session-id-refusal-handled", "pass", /resent it with the same session id: tools\/call echo \(seq 2\) got HTTP 400 \(refused the same way\)/);
});

test("session-id-refusal-handled is info when nothing followed the refusal", () => {
  expectCheck([refused(1, 0)], "session-id-refusal-handled", "info", /sent no further request on any session/, [1]);
});

test("session-id-refusal-handled ignores a 400 to a request that really had no session id, and 2026-07-28", () => {
  const bare = legacyCall(1, 0, undefined, "2025-11-25", REFUSAL);
  const modern = call(1, 0, "echo", ECHO, { headers: { "mcp-session-id": SID }, ...REFUSAL });
  for (const first of [bare, modern]) assert.deepEqual(checksOf([first, legacyCall(2, 50, undefined)]).filter((c) => c.id === "session-id-refusal-handled"), []);
});

// ---- version-renegotiated: a client that gave up ----

test("version-renegotiated says a legacy client that sent nothing after the initialize refusal gave up, as info", () => {
  const refusedInit = initialize(1, 0, { error: { code: -32602, message: "Unsupported protocol version", data: { supported: ["2025-06-18"], requested: "2025-11-25" } } });
  expectCheck(
    [refusedInit],
    "version-renegotiated",
    "info",
    /^After the -32602 refusal of 2025-11-25 to initialize \(seq 1\), the client then sent nothing more: it gave up without trying a version from data.supported \["2025-06-18"\] \(the 2025 lifecycle names no retry after an initialize error, and a client that supports none of the server's versions SHOULD disconnect\)\.$/,
  );
});

test("version-renegotiated says a 2026-07-28 client that sent nothing after -32022 gave up, as info", () => {
  const refusedCall = call(1, 0, "echo", ECHO, { status: 400, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-06-18"], requested: MODERN } } });
  expectCheck([refusedCall], "version-renegotiated", "info", /then sent nothing more: it gave up without trying a version from data.supported \["2025-06-18"\] \(2026-07-28 asks for a retry/);
});
