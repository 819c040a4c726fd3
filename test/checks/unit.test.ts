import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, CheckSchema, runChecks } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, initialize, MODERN } from "./entries.ts";

function checks(entries: JournalEntry[]): Promise<Check[]> {
  return runChecks(entries);
}

async function only(entries: JournalEntry[], id: string): Promise<Check> {
  const found = (await checks(entries)).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(await checks(entries), null, 1)}`);
  return found[0] as Check;
}

/** The one check with this id, after asserting its status (and its message and evidence, when given). */
async function expectCheck(entries: JournalEntry[], id: string, status: Check["status"], expected: { message?: string | RegExp; evidence?: number[] } = {}): Promise<Check> {
  const c = await only(entries, id);
  assert.equal(c.status, status, c.message);
  if (typeof expected.message === "string") assert.equal(c.message, expected.message);
  else if (expected.message) assert.match(c.message, expected.message);
  if (expected.evidence) assert.deepEqual(c.evidence, expected.evidence);
  return c;
}

async function absent(entries: JournalEntry[], id: string): Promise<void> {
  assert.deepEqual(
    (await checks(entries)).filter((c) => c.id === id),
    [],
  );
}

const ECHO = { text: "hi" };
const ORDER = { item: "widget", quantity: 2 };
const unavailable = (retryAfter?: string, status = 503) => ({
  status,
  ...(retryAfter !== undefined ? { responseHeaders: { "retry-after": retryAfter } } : {}),
});

// ---- runChecks ----

test("an empty journal gives no checks", async () => {
  assert.deepEqual(await checks([]), []);
});

test("a journal without faults gives no checks", async () => {
  assert.deepEqual(await checks([call(1, 0, "echo", ECHO), call(2, 100, "place_order", ORDER)]), []);
});

test("every check matches CheckSchema and has a kebab-case id", async () => {
  const all = await checks([
    call(1, 0, "echo", ECHO, unavailable("1")),
    call(2, 50, "echo", ECHO),
    call(3, 100, "place_order", ORDER, unavailable()),
    call(4, 120, "place_order", ORDER),
  ]);
  assert.ok(all.length >= 3);
  for (const c of all) {
    assert.ok(CheckSchema.safeParse(c).success, JSON.stringify(c));
    assert.match(c.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  }
});

test("entries are judged in the order their requests arrived, not in seq order", async () => {
  // The retry finished first (seq 1) although it arrived after the failure (seq 2) ended.
  await expectCheck([call(1, 1500, "echo", ECHO), call(2, 0, "echo", ECHO, { ...unavailable("1"), durationMs: 10 })], "http-retry-after-honoured", "pass", {
    evidence: [1, 2],
  });
});

// ---- http-retry-after-honoured ----

test("http-retry-after-honoured passes when the retry waited the Retry-After seconds", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("1")), call(2, 1205, "echo", ECHO)], "http-retry-after-honoured", "pass", {
    message: "Waited 1200 ms after a 503 to tools/call echo that asked for Retry-After: 1 s (1000 ms).",
    evidence: [1, 2],
  });
});

test("http-retry-after-honoured fails when the retry came before the Retry-After seconds", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("2")), call(2, 417, "echo", ECHO)], "http-retry-after-honoured", "fail", {
    message: "Retried 412 ms after a 503 to tools/call echo that asked for Retry-After: 2 s (2000 ms).",
    evidence: [1, 2],
  });
});

test("http-retry-after-honoured judges a 429 the same way", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("1", 429)), call(2, 100, "echo", ECHO)], "http-retry-after-honoured", "fail", {
    message: /after a 429 to tools\/call echo/,
  });
});

test("http-retry-after-honoured reads an HTTP-date against the response's Date header", async () => {
  const headers = { "retry-after": "Sat, 01 Aug 2026 10:00:03 GMT", date: "Sat, 01 Aug 2026 10:00:00 GMT" };
  const early = await only([call(1, 0, "echo", ECHO, { status: 503, responseHeaders: headers }), call(2, 1005, "echo", ECHO)], "http-retry-after-honoured");
  assert.equal(early.status, "fail");
  assert.match(early.message, /Retry-After: Sat, 01 Aug 2026 10:00:03 GMT \(3000 ms after the response\)/);
  const late = await only([call(1, 0, "echo", ECHO, { status: 503, responseHeaders: headers }), call(2, 3100, "echo", ECHO)], "http-retry-after-honoured");
  assert.equal(late.status, "pass");
});

test("http-retry-after-honoured honours retry-after-ms", async () => {
  await expectCheck(
    [call(1, 0, "echo", ECHO, { status: 503, responseHeaders: { "retry-after-ms": "1500" } }), call(2, 1000, "echo", ECHO)],
    "http-retry-after-honoured",
    "fail",
    { message: /retry-after-ms: 1500/ },
  );
});

test("http-retry-after-honoured is info when the client never retried", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("1"))], "http-retry-after-honoured", "info", {
    message: /No retry observed after a 503 to tools\/call echo .*the journal shows no later request for the same call/,
    evidence: [1],
  });
});

test("a later call with other arguments is not a retry", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("1")), call(2, 10, "echo", { text: "other" })], "http-retry-after-honoured", "info");
});

test("a retry that changes only _meta is still a retry", async () => {
  await expectCheck(
    [
      call(1, 0, "echo", ECHO, { ...unavailable("1"), params: { _meta: { progressToken: 1 } } }),
      call(2, 10, "echo", ECHO, { params: { _meta: { progressToken: 2 } } }),
    ],
    "http-retry-after-honoured",
    "fail",
  );
});

test("http-retry-after-honoured is absent when no failure carried Retry-After", async () => {
  await absent([call(1, 0, "echo", ECHO, unavailable()), call(2, 500, "echo", ECHO)], "http-retry-after-honoured");
});

// ---- http-retry-backoff ----

test("http-retry-backoff warns about a retry without backoff after a 503 without Retry-After", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable()), call(2, 25, "echo", ECHO)], "http-retry-backoff", "warning", {
    message: "Retried 20 ms after a 503 to tools/call echo without Retry-After: no backoff (at least 100 ms expected, growing with each attempt).",
    evidence: [1, 2],
  });
});

test("http-retry-backoff passes when the client backed off", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable()), call(2, 505, "echo", ECHO)], "http-retry-backoff", "pass", {
    message: "Backed off 500 ms after a 503 to tools/call echo without Retry-After.",
  });
});

test("http-retry-backoff treats an unreadable Retry-After as none", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable("soon")), call(2, 10, "echo", ECHO)], "http-retry-backoff", "warning", {
    message: /its Retry-After was unreadable/,
  });
});

test("http-retry-backoff warns when the journal cut the failed request's body", async () => {
  await expectCheck([call(1, 0, "echo", { text: "x".repeat(200) }, { ...unavailable(), requestCap: 50 })], "http-retry-backoff", "warning", {
    message: /cut the request body/,
  });
});

// ---- http-retry-bounded ----

test("http-retry-bounded warns about a retry storm of more than three retries", async () => {
  const entries = [0, 1, 2, 3, 4].map((i) => call(i + 1, i * 200, "echo", ECHO, unavailable()));
  entries.push(call(6, 1000, "echo", ECHO));
  await expectCheck(entries, "http-retry-bounded", "warning", {
    message: /tools\/call echo was retried 5 times in a row after 503 \(a retry storm: at most 3 expected\); the last attempt got 200/,
    evidence: [1, 2, 3, 4, 5, 6],
  });
});

test("http-retry-bounded passes for a few retries", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, unavailable()), call(2, 300, "echo", ECHO, unavailable()), call(3, 900, "echo", ECHO)], "http-retry-bounded", "pass", {
    message: /retried 2 times after 503/,
    evidence: [1, 2, 3],
  });
});

test("http-retry-bounded is info when nothing was retried", async () => {
  assert.equal((await only([call(1, 0, "echo", ECHO, unavailable())], "http-retry-bounded")).status, "info");
});

// ---- non-idempotent-not-replayed ----

test("non-idempotent-not-replayed fails when place_order is resent unchanged after an HTTP failure", async () => {
  await expectCheck([call(1, 0, "place_order", ORDER, unavailable()), call(2, 500, "place_order", ORDER)], "non-idempotent-not-replayed", "fail", {
    message:
      'place_order was sent again with the same arguments {"item":"widget","quantity":2} 495 ms after HTTP 503 to place_order: a blind replay of a tool that is not idempotent (the journal does not say whether the first attempt ran the tool, so it may run twice).',
    evidence: [1, 2],
  });
});

test("non-idempotent-not-replayed fails on a replay after a cut stream", async () => {
  await expectCheck([call(1, 0, "place_order", ORDER, { sse: true, cut: true }), call(2, 50, "place_order", ORDER)], "non-idempotent-not-replayed", "fail", {
    message: /after a stream cut before the response/,
  });
});

test("non-idempotent-not-replayed fails on a replay after a tool error", async () => {
  const failed = { result: { resultType: "complete", content: [{ type: "text", text: "Payment declined" }], isError: true } };
  await expectCheck([call(1, 0, "place_order", ORDER, failed), call(2, 50, "place_order", ORDER)], "non-idempotent-not-replayed", "fail", {
    message: /after a tool error \(isError: true\)/,
  });
});

test("non-idempotent-not-replayed passes when the arguments changed", async () => {
  await expectCheck(
    [call(1, 0, "place_order", ORDER, unavailable()), call(2, 500, "place_order", { ...ORDER, quantity: 1 })],
    "non-idempotent-not-replayed",
    "pass",
    { message: /resent with changed arguments after HTTP 503 to place_order: \{"item":"widget","quantity":2\} then \{"item":"widget","quantity":1\}/ },
  );
});

test("non-idempotent-not-replayed passes when the failed call was not resent", async () => {
  await expectCheck([call(1, 0, "place_order", ORDER, unavailable())], "non-idempotent-not-replayed", "pass", { evidence: [1] });
});

test("non-idempotent-not-replayed is info for a repeat after a success", async () => {
  await expectCheck([call(1, 0, "place_order", ORDER), call(2, 5000, "place_order", ORDER)], "non-idempotent-not-replayed", "info", {
    message: /after it succeeded/,
  });
});

test("non-idempotent-not-replayed ignores idempotent tools", async () => {
  await absent([call(1, 0, "echo", ECHO, unavailable()), call(2, 500, "echo", ECHO)], "non-idempotent-not-replayed");
});

test("non-idempotent-not-replayed learns annotations from tools/list in the journal", async () => {
  const list = entry({
    seq: 1,
    at: 0,
    method: "tools/list",
    result: {
      resultType: "complete",
      tools: [{ name: "transfer", inputSchema: { type: "object" }, annotations: { idempotentHint: false } }],
      ttlMs: 0,
      cacheScope: "private",
    },
  });
  await expectCheck([list, call(2, 10, "transfer", { amount: 5 }, unavailable()), call(3, 20, "transfer", { amount: 5 })], "non-idempotent-not-replayed", "fail", {
    evidence: [2, 3],
  });
});

test("non-idempotent-not-replayed warns when a request body was cut", async () => {
  const big = { item: "x".repeat(300), quantity: 1 };
  await expectCheck(
    [call(1, 0, "place_order", big, { ...unavailable(), requestCap: 100 }), call(2, 50, "place_order", big, { requestCap: 100 })],
    "non-idempotent-not-replayed",
    "warning",
  );
});

// ---- mrtr-* ----

const STATE = "v1.eyJtIjoidG9vbHMvY2FsbCJ9.c2ln";
const ASK = {
  resultType: "input_required",
  inputRequests: {
    approval: {
      method: "elicitation/create",
      params: { mode: "form", message: "Approve?", requestedSchema: { type: "object", properties: { approved: { type: "boolean" } } } },
    },
  },
  requestState: STATE,
};
const ACCEPT = { approval: { action: "accept", content: { approved: true } } };

function asked(rest: Parameters<typeof call>[4] = {}) {
  return call(1, 0, "place_order", ORDER, { id: "a1", result: ASK, ...rest });
}

function retried(params: Record<string, unknown>, rest: Parameters<typeof call>[4] = {}, args: Record<string, unknown> = ORDER) {
  return call(2, 40, "place_order", args, { id: "a2", params, ...rest });
}

const GOOD_RETRY = { inputResponses: ACCEPT, requestState: STATE };
const MRTR = ["mrtr-new-request-id", "mrtr-request-state-echoed", "mrtr-input-responses-complete", "mrtr-same-request"];

test("every mrtr check passes for a correct input_required retry", async () => {
  const entries = [asked(), retried(GOOD_RETRY)];
  for (const id of MRTR) {
    await expectCheck(entries, id, "pass", { evidence: [1, 2] });
  }
  assert.equal((await only(entries, "mrtr-request-state-echoed")).message, `The retry echoed requestState byte-exact (${STATE.length} characters).`);
  assert.equal((await only(entries, "mrtr-new-request-id")).message, 'The retry used a new JSON-RPC id "a2" (the initial request had "a1").');
});

test("a correct input_required retry is not a blind replay", async () => {
  await absent([asked(), retried(GOOD_RETRY)], "non-idempotent-not-replayed");
});

test("mrtr checks read an input_required result from an SSE stream", async () => {
  const entries = [asked({ sse: true }), retried(GOOD_RETRY)];
  for (const id of MRTR) assert.equal((await only(entries, id)).status, "pass", id);
});

test("mrtr-new-request-id fails when the retry reuses the id", async () => {
  await expectCheck([asked(), retried(GOOD_RETRY, { id: "a1" })], "mrtr-new-request-id", "fail", { message: /reused JSON-RPC id "a1"/ });
});

test("mrtr-request-state-echoed fails when the state was changed", async () => {
  await expectCheck([asked(), retried({ ...GOOD_RETRY, requestState: STATE.replace("c2ln", "c2lX") })], "mrtr-request-state-echoed", "fail", {
    message: new RegExp(`\\(${STATE.length} characters; the retry sent ${STATE.length} characters, differing from character ${STATE.length - 1}\\)`),
  });
});

test("mrtr-request-state-echoed fails when the state was left out", async () => {
  await expectCheck([asked(), retried({ inputResponses: ACCEPT })], "mrtr-request-state-echoed", "fail", { message: /omitted the requestState/ });
});

test("mrtr-request-state-echoed fails when a state is sent although none was given", async () => {
  const { requestState: _s, ...withoutState } = ASK;
  await expectCheck([asked({ result: withoutState }), retried(GOOD_RETRY)], "mrtr-request-state-echoed", "fail", { message: /although the result gave none/ });
});

test("mrtr-request-state-echoed warns when the journal cut the input_required result", async () => {
  await expectCheck([asked({ responseCap: 60 }), retried(GOOD_RETRY)], "mrtr-request-state-echoed", "warning", {
    message: /The journal cut the input_required result to tools\/call place_order/,
  });
});

test("mrtr-request-state-echoed warns when the journal cut the retry's body", async () => {
  await expectCheck([asked(), retried(GOOD_RETRY, { requestCap: 50 })], "mrtr-request-state-echoed", "warning", { message: /cut the retry's request body/ });
});

test("mrtr-input-responses-complete falls back on the verdict's input keys when the result was cut", async () => {
  assert.equal((await only([asked({ responseCap: 60 }), retried(GOOD_RETRY)], "mrtr-input-responses-complete")).status, "pass");
  assert.equal((await only([asked({ responseCap: 60 }), retried({ requestState: STATE })], "mrtr-input-responses-complete")).status, "fail");
});

test("mrtr-input-responses-complete fails when an input request is unanswered", async () => {
  await expectCheck([asked(), retried({ requestState: STATE, inputResponses: { other: { action: "accept" } } })], "mrtr-input-responses-complete", "fail", {
    message: "The retry left input request approval unanswered (it answered only other).",
  });
});

test("mrtr-same-request fails when the retry changed the arguments", async () => {
  await expectCheck([asked(), retried(GOOD_RETRY, {}, { ...ORDER, quantity: 3 })], "mrtr-same-request", "fail", { message: /"quantity":2.*became.*"quantity":3/ });
});

test("mrtr checks are info when the client never retried", async () => {
  for (const id of MRTR) {
    await expectCheck([asked()], id, "info", { evidence: [1] });
  }
});

// ---- invalid-params-fixed ----

/** The 2025 lifecycle's answer to an initialize with an unsupported version. */
const REFUSED_2025 = { code: -32602, message: "Unsupported protocol version", data: { supported: ["2025-06-18"], requested: "2025-11-25" } };
const INVALID = { error: { code: -32602, message: "Invalid params: quantity must be positive" } };

test("invalid-params-fixed fails when the same arguments are sent again after -32602 and refused again, saying so", async () => {
  await expectCheck([call(1, 0, "place_order", ORDER, INVALID), call(2, 30, "place_order", ORDER, INVALID)], "invalid-params-fixed", "fail", {
    message:
      'tools/call place_order was resent unchanged {"item":"widget","quantity":2} 25 ms after -32602 "Invalid params: quantity must be positive" (HTTP 200): the same invalid params failed again (seq 2, -32602).',
    evidence: [1, 2],
  });
});

test("invalid-params-fixed fails an unchanged resend that got 200 without saying it failed again", async () => {
  // errors.jsonrpc_error's default: an injected -32602 on the first call, so the identical second call succeeds.
  await expectCheck([call(1, 0, "place_order", ORDER, INVALID), call(2, 30, "place_order", ORDER)], "invalid-params-fixed", "fail", {
    message:
      'tools/call place_order was resent unchanged {"item":"widget","quantity":2} 25 ms after -32602 "Invalid params: quantity must be positive" (HTTP 200): the client did not fix them; the resend (seq 2) got a tool result.',
    evidence: [1, 2],
  });
});

test("invalid-params-fixed passes when the arguments changed", async () => {
  await expectCheck([call(1, 0, "echo", {}, INVALID), call(2, 30, "echo", ECHO)], "invalid-params-fixed", "pass", { message: /\{\} then \{"text":"hi"\}/ });
});

test("invalid-params-fixed judges a 400 whose body carried -32602", async () => {
  const missingMeta = { status: 400, error: { code: -32602, message: "Invalid params: missing params._meta" } };
  assert.equal((await only([call(1, 0, "echo", ECHO, missingMeta), call(2, 30, "echo", ECHO)], "invalid-params-fixed")).status, "fail");
  const fixed = call(2, 30, "echo", ECHO, { params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } });
  await expectCheck([call(1, 0, "echo", ECHO, missingMeta), fixed], "invalid-params-fixed", "pass", { message: /with a changed _meta/ });
});

test("invalid-params-fixed is info when the request was not sent again", async () => {
  assert.equal((await only([call(1, 0, "echo", {}, INVALID)], "invalid-params-fixed")).status, "info");
});

test("invalid-params-fixed ignores the 2025 unsupported-version answer to initialize", async () => {
  const refused = initialize(1, 0, { error: REFUSED_2025 });
  await absent([refused], "invalid-params-fixed");
});

// ---- session-reinitialized ----

const DEAD = "dead0000000000000000000000000001";
const FRESH = "fresh000000000000000000000000002";

function legacyCall(seq: number, at: number, sessionId: string, rest: Parameters<typeof call>[4] = {}) {
  return call(seq, at, "echo", ECHO, {
    legacy: true,
    headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    result: { content: [] },
    ...rest,
  });
}
const gone = (seq: number, at: number) => legacyCall(seq, at, DEAD, { status: 404, error: { code: -32600, message: "Session not found" }, result: undefined });

test("session-reinitialized passes when the client initializes again and uses the new id", async () => {
  const initialized = entry({ seq: 3, at: 30, method: "notifications/initialized", notification: true, legacy: true, headers: { "mcp-session-id": FRESH } });
  await expectCheck([gone(1, 0), initialize(2, 20, { newSessionId: FRESH }), initialized], "session-reinitialized", "pass", {
    message: /sent a new initialize without Mcp-Session-Id and then used the new session id \(notifications\/initialized\)/,
    evidence: [1, 2, 3],
  });
});

test("session-reinitialized fails when the client keeps sending the dead id", async () => {
  await expectCheck([gone(1, 0), gone(2, 20), gone(3, 40)], "session-reinitialized", "fail", {
    message: /kept sending the dead Mcp-Session-Id \(tools\/call echo\) instead of initializing a new session/,
    evidence: [1, 2],
  });
});

test("session-reinitialized fails when initialize carries the dead id", async () => {
  await expectCheck([gone(1, 0), initialize(2, 20, { headers: { "mcp-session-id": DEAD } })], "session-reinitialized", "fail", {
    message: /dead Mcp-Session-Id \(initialize\)/,
  });
});

test("session-reinitialized fails when the client goes on without a session", async () => {
  await expectCheck([gone(1, 0), call(2, 20, "echo", ECHO, { legacy: true })], "session-reinitialized", "fail", {
    message: /without a session instead of a new initialize/,
  });
});

test("session-reinitialized is info when no request followed", async () => {
  assert.equal((await only([gone(1, 0)], "session-reinitialized")).status, "info");
});

test("session-reinitialized ignores a 2026-07-28 404 for an unknown method", async () => {
  const unknown = entry({
    seq: 1,
    at: 0,
    method: "nope/nope",
    headers: { "mcp-session-id": DEAD },
    status: 404,
    error: { code: -32601, message: "Method not found" },
  });
  await absent(
    [unknown, entry({ seq: 2, at: 10, method: "tools/list", headers: { "mcp-session-id": DEAD }, result: { resultType: "complete", tools: [] } })],
    "session-reinitialized",
  );
});

// ---- version-renegotiated ----

const UNSUPPORTED = {
  status: 400,
  error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-11-25", "2025-06-18"], requested: MODERN } },
};

test("version-renegotiated passes when the client falls back to initialize with a listed version", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, UNSUPPORTED), initialize(2, 20)], "version-renegotiated", "pass", {
    message:
      'After the -32022 refusal of 2026-07-28 to tools/call echo, the client fell back to initialize with "2025-11-25", which is in data.supported ["2025-11-25","2025-06-18"].',
    evidence: [1, 2],
  });
});

test("version-renegotiated fails when the client repeats the unsupported version", async () => {
  await expectCheck(
    [call(1, 0, "echo", ECHO, UNSUPPORTED), call(2, 20, "echo", ECHO, { params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } })],
    "version-renegotiated",
    "fail",
    { message: /repeated the unsupported version: it sent tools\/call echo with version "2026-07-28"/ },
  );
});

test("version-renegotiated fails when the next version is not listed", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, UNSUPPORTED), initialize(2, 20, { version: "2024-11-05" })], "version-renegotiated", "fail", {
    message: /"2024-11-05", which is not in data.supported/,
  });
});

test("version-renegotiated judges the 2025 -32602 answer to initialize", async () => {
  const refused = initialize(1, 0, { error: REFUSED_2025 });
  assert.equal((await only([refused, initialize(2, 20, { version: "2025-06-18" })], "version-renegotiated")).status, "pass");
  assert.equal((await only([refused, initialize(2, 20)], "version-renegotiated")).status, "fail");
});

test("version-renegotiated reads data.supported from the verdict when the journal cut the error", async () => {
  await expectCheck([call(1, 0, "echo", ECHO, { ...UNSUPPORTED, responseCap: 20 }), initialize(2, 20)], "version-renegotiated", "pass");
});

test("version-renegotiated is info when no request followed", async () => {
  assert.equal((await only([call(1, 0, "echo", ECHO, UNSUPPORTED)], "version-renegotiated")).status, "info");
});
