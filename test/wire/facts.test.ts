import { test } from "node:test";
import assert from "node:assert/strict";
import { classify } from "../../src/classify/index.ts";
import { runChecks } from "../../src/checks/index.ts";
import { ErrorCode, injectedErrorMessage } from "../../src/wire/jsonrpc.ts";
import { JSONRPC_ERRORS, TRANSIENT_HTTP_STATUSES } from "../../src/wire/facts.ts";
import { call } from "../checks/entries.ts";

const ERRORS = Object.entries(JSONRPC_ERRORS);

/** The classifier's verdict on a 200 answer to a tools/call that carries JSON-RPC error `code`. */
function verdictForError(code: number) {
  const request = { headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } }) };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code, message: "from the server" } });
  return classify({ request, response: { status: 200, headers: { "content-type": "application/json" }, body } });
}

test("the table gives every JSON-RPC error a code and a name of its own", () => {
  assert.ok(ERRORS.length >= 10, `only ${ERRORS.length} errors`);
  assert.equal(new Set(ERRORS.map(([, e]) => e.code)).size, ERRORS.length);
  assert.equal(new Set(ERRORS.map(([, e]) => e.name)).size, ERRORS.length);
});

test("the server's error codes are the table's, under the same keys", () => {
  assert.deepEqual(Object.keys(ErrorCode).sort(), ERRORS.map(([key]) => key).sort());
  for (const [key, { code }] of ERRORS) assert.equal(ErrorCode[key as keyof typeof ErrorCode], code, key);
});

test("the server's injected errors and the classifier's findings name each code by the table's one name", () => {
  for (const [key, { code, name }] of ERRORS) {
    assert.equal(injectedErrorMessage(code), `${name} (injected by Faultline)`, key);
    const verdict = verdictForError(code);
    assert.equal(verdict.outcome, "JSONRPC_ERROR", key);
    const named = verdict.findings.find((f) => f.code === "JSONRPC_ERROR_RESPONSE");
    assert.ok(named?.message.includes(`error ${code} (${name}):`), `${key}: ${named?.message}`);
  }
});

test("the classifier advises a bounded retry after exactly the table's transient statuses among the 4xx and named 5xx", () => {
  const named = [400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 501, 502, 503, 504, 505, 524];
  for (const status of named) {
    const verdict = classify({ response: { status, headers: {}, body: "" } });
    const transient = (TRANSIENT_HTTP_STATUSES as readonly number[]).includes(status);
    assert.equal(verdict.retry.decision === "conditional", transient, `${status}: ${verdict.retry.decision}`);
  }
});

test("the checks judge the retry of exactly the table's transient statuses", async () => {
  for (const status of [400, 404, 408, 429, 500, 501, 502, 503, 504, 524]) {
    const entries = [call(1, 0, "echo", { text: "hi" }, { status }), call(2, 10, "echo", { text: "hi" })];
    const judged = (await runChecks(entries)).some((c) => c.id === "http-retry-backoff");
    assert.equal(judged, (TRANSIENT_HTTP_STATUSES as readonly number[]).includes(status), String(status));
  }
});
