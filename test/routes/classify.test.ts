import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { postJson as post, request } from "../helpers/app.ts";

// POST /classify needs no Durable Object: these tests run the app in process (test/helpers/app.ts).

const fixture = (name: string) => readFileSync(new URL(`../fixtures/classify/${name}`, import.meta.url), "utf8");

const postJson = (body: unknown) => post("/classify", body);

function postHttp(text: string, query = "") {
  return request(`/classify${query}`, { method: "POST", headers: { "content-type": "message/http" }, body: text });
}

type Json = Record<string, any>;

async function json(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text);
}

const toolResult = (id: number, extra: object = {}) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "72F and sunny" }], ...extra } });

test("classifies a flat exchange with a successful tool result as TOOL_SUCCESS", async () => {
  const verdict = await json(await postJson(JSON.parse(fixture("exchange-flat.json"))), 200);
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.status, 200);
  assert.equal(verdict.retry.decision, "none");
});

test("classifies a flat exchange whose result has isError true as TOOL_ERROR", async () => {
  const verdict = await json(
    await postJson({ status: 200, headers: { "content-type": "application/json" }, body: toolResult(4, { isError: true }), expectedId: 4 }),
    200,
  );
  assert.equal(verdict.outcome, "TOOL_ERROR");
  assert.equal(verdict.layer, "application");
});

test("classifies a nested 503 with Retry-After as HTTP_ERROR with a conditional retry after 2 s", async () => {
  const verdict = await json(
    await postJson({
      request: { body: { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_weather" } } },
      response: { status: 503, headers: { "retry-after": "2" }, body: "busy" },
    }),
    200,
  );
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.layer, "transport");
  assert.equal(verdict.status, 503);
  assert.equal(verdict.retry.decision, "conditional");
  assert.equal(verdict.retry.afterMs, 2000);
});

test("answers an array of exchanges with an array of verdicts in the same order", async () => {
  const verdicts = await json(await postJson(JSON.parse(fixture("exchanges.json"))), 200);
  assert.ok(Array.isArray(verdicts));
  assert.deepEqual(
    verdicts.map((verdict: Json) => verdict.outcome),
    ["TOOL_SUCCESS", "HTTP_ERROR", "TOOL_ERROR"],
  );
});

test("answers an empty array with an empty array", async () => {
  assert.deepEqual(await json(await postJson([]), 200), []);
});

test("classifies a raw curl -si response sent as message/http", async () => {
  const verdict = await json(await postHttp(fixture("503.http")), 200);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.status, 503);
  assert.equal(verdict.retry.decision, "conditional");
  assert.equal(verdict.retry.afterMs, 2000);
});

test("takes expectedId, method and protocolVersion for message/http from the query", async () => {
  const verdict = await json(await postHttp(fixture("tool-error.http"), "?expectedId=1&method=tools/call&protocolVersion=2025-11-25"), 200);
  assert.equal(verdict.outcome, "TOOL_ERROR");
  assert.equal(verdict.id, 1);
  assert.equal(verdict.protocolVersion, "2025-11-25");
  assert.equal(verdict.protocolVersionSource, "input");
});

test("takes httpMethod and sessionId for message/http from the query", async () => {
  const stream = await json(await postHttp(fixture("real/raw/sdk-v1-stateful-sse.legacy-get-stream.response.http"), "?httpMethod=GET"), 200);
  assert.equal(stream.outcome, "STREAM_OPEN");
  const gone = await json(await postHttp(fixture("real/raw/fastmcp.legacy-after-delete.response.http"), "?sessionId=abc"), 200);
  assert.equal(gone.retry.decision, "reinitialize");
});

test("classifies a message/http body holding the request and then its response", async () => {
  const base = "real/raw/sdk-v1-stateful-sse.legacy-elicitation-cut";
  const request = fixture(`${base}.request.http`);
  const length = new TextEncoder().encode(request.slice(request.indexOf("\r\n\r\n") + 4)).length;
  const withLength = request.replace("\r\n\r\n", `\r\ncontent-length: ${length}\r\n\r\n`);
  const verdict = await json(await postHttp(`${withLength}${fixture(`${base}.response.http`)}`), 200);
  assert.equal(verdict.outcome, "STREAM_INCOMPLETE");
  assert.equal(verdict.retry.decision, "answer-server-request");
  assert.deepEqual(verdict.retry.pendingRequests, [{ method: "elicitation/create", id: 0 }]);
});

test("answers 400 naming query.sessionId for a session id that is not visible ASCII", async () => {
  const body = await json(await postHttp(fixture("503.http"), "?sessionId=a%20b"), 400);
  assert.equal(body.error.issues[0].path, "query.sessionId");
});

test("classifies the final response after a 100 Continue in a message/http capture", async () => {
  const verdict = await json(await postHttp(fixture("sse-after-100-continue.http"), "?expectedId=1"), 200);
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.transport, "sse");
});

test("reads a quoted expectedId as a string, so the numeric id 1 is an ID_MISMATCH", async () => {
  const verdict = await json(await postHttp(fixture("tool-error.http"), `?expectedId=${encodeURIComponent('"1"')}`), 200);
  assert.equal(verdict.outcome, "INVALID_ENVELOPE");
  assert.deepEqual(verdict.findings.map(({ code }: Json) => code), ["ID_MISMATCH"]);
});

test("answers a HAR document with one verdict per JSON-RPC entry", async () => {
  const body = await json(await postJson(JSON.parse(fixture("session.har"))), 200);
  assert.deepEqual(
    body.entries.map(({ index, method, id, verdict }: Json) => ({ index, method, id, outcome: verdict.outcome })),
    [
      { index: 0, method: "initialize", id: 1, outcome: "TOOL_SUCCESS" },
      { index: 1, method: "notifications/initialized", id: null, outcome: "NOTIFICATION_ACCEPTED" },
      { index: 3, method: "tools/call", id: 2, outcome: "TOOL_SUCCESS" },
      { index: 4, method: "tools/call", id: 3, outcome: "TOOL_ERROR" },
    ],
  );
  assert.deepEqual(body.skipped.map(({ index }: Json) => index), [2, 5]);
});

test("answers 400 naming the path of the broken field in an array element", async () => {
  const exchanges = [0, 1, 2].map((id) => ({ status: 200, body: toolResult(id) }));
  const body = await json(await postJson([...exchanges, { response: { status: "503", body: "" } }]), 400);
  assert.equal(body.error.code, "invalid_request");
  assert.match(body.error.message, /^3\.response\.status: /);
  assert.deepEqual(
    body.error.issues.map(({ path, rule }: Json) => ({ path, rule })),
    [{ path: "3.response.status", rule: "invalid_type" }],
  );
});

test("answers 400 naming a missing body and an unknown field", async () => {
  const body = await json(await postJson({ status: 200, expected_id: 1 }), 400);
  assert.deepEqual(
    body.error.issues.map(({ path, rule }: Json) => ({ path, rule })),
    [
      { path: "body", rule: "invalid_type" },
      { path: "expected_id", rule: "unrecognized_keys" },
    ],
  );
});

test("answers 400 invalid_json with the position for a body that is not valid JSON", async () => {
  const res = await request("/classify", { method: "POST", headers: { "content-type": "application/json" }, body: '{"status": 200,\n "body": "x"' });
  const body = await json(res, 400);
  assert.equal(body.error.code, "invalid_json");
  assert.equal(body.error.issues[0].rule, "invalid_json");
  assert.match(body.error.message, /not valid JSON.*position 28/);
});

test("answers 400 missing_status_line, with one issue, for a JSON-RPC response body sent alone as curl -s prints it", async () => {
  for (const alone of [toolResult(1), [toolResult(1), toolResult(2)]]) {
    const body = await json(await postJson(alone), 400);
    assert.equal(body.error.code, "invalid_request");
    assert.deepEqual(body.error.issues.map(({ path, rule }: Json) => ({ path, rule })), [{ path: "(root)", rule: "missing_status_line" }]);
    assert.match(body.error.message, /the status line and headers are missing\. Capture the response with `curl -si`/);
  }
});

test("answers 400 for a JSON scalar", async () => {
  const body = await json(await postJson(42), 400);
  assert.equal(body.error.issues[0].path, "(root)");
});

test("answers 400 naming (body) and the line for a message/http body that is not an HTTP response", async () => {
  const body = await json(await postHttp('{"status": 503}'), 400);
  assert.deepEqual(body.error.issues, [
    { path: "(body)", rule: "not_http_response", message: `Expected a status line such as 'HTTP/1.1 200 OK', got "{\\"status\\": 503}". (line 1)` },
  ]);
});

test("answers 400 naming query.expectedId for an empty expectedId", async () => {
  const body = await json(await postHttp(fixture("503.http"), "?expectedId="), 400);
  assert.equal(body.error.issues[0].path, "query.expectedId");
});

test("answers 413 for a Content-Length above 1 MiB", async () => {
  const big = JSON.stringify({ status: 200, body: "x".repeat(1024 * 1024) });
  const headers = { "content-type": "application/json", "content-length": String(big.length) };
  const body = await json(await request("/classify", { method: "POST", headers, body: big }), 413);
  assert.equal(body.error.code, "payload_too_large");
  assert.match(body.error.message, /1048576 bytes/);
});

test("counts a JSON body's limit in UTF-8 bytes: 1 MiB of three-byte characters is refused, not their 350,000 code units", async () => {
  // 350,000 "€" are 1,050,000 bytes: over the 1 MiB limit, though the text is only a third as long in code units.
  const over = JSON.stringify({ status: 200, body: "€".repeat(350_000) });
  const refused = await json(await request("/classify", { method: "POST", headers: { "content-type": "application/json" }, body: over }), 413);
  assert.equal(refused.error.code, "payload_too_large");
  // 340,000 of them are 1,020,000 bytes: under the limit, so the exchange is classified.
  const under = JSON.stringify({ status: 200, body: "€".repeat(340_000) });
  const verdict = await json(await request("/classify", { method: "POST", headers: { "content-type": "application/json" }, body: under }), 200);
  assert.equal(typeof verdict.outcome, "string");
});

test("answers 413 for a streamed body without Content-Length that grows above 1 MiB", async () => {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 20) return controller.close();
      sent += 1;
      controller.enqueue(chunk);
    },
  });
  const init = { method: "POST", headers: { "content-type": "message/http" }, body: stream, duplex: "half" } as RequestInit;
  const body = await json(await request("/classify", init), 413);
  assert.equal(body.error.code, "payload_too_large");
});

test("answers 413 naming the rule for an array of more than 100 exchanges", async () => {
  const body = await json(await postJson(Array.from({ length: 101 }, (_, id) => ({ status: 200, body: toolResult(id) }))), 413);
  assert.equal(body.error.code, "too_many_exchanges");
  assert.equal(body.error.message, "At most 100 exchanges per request; this array has 101");
  assert.deepEqual(body.error.issues.map(({ rule }: Json) => rule), ["max_exchanges"]);
});

test("accepts an array of exactly 100 exchanges", async () => {
  const verdicts = await json(await postJson(Array.from({ length: 100 }, (_, id) => ({ status: 200, body: toolResult(id), expectedId: id }))), 200);
  assert.equal(verdicts.length, 100);
});

test("answers 415 naming the supported types for text/plain", async () => {
  const res = await request("/classify", { method: "POST", headers: { "content-type": "text/plain" }, body: "HTTP/1.1 200 OK\r\n\r\n" });
  const body = await json(res, 415);
  assert.equal(body.error.code, "unsupported_media_type");
  assert.match(body.error.message, /application\/json.*message\/http/);
});

test("answers 415 for a body without Content-Type", async () => {
  const body = await json(await request("/classify", { method: "POST", body: new Uint8Array([123, 125]) }), 415);
  assert.match(body.error.message, /no Content-Type/);
});

test("accepts application/json with a charset parameter", async () => {
  const res = await request("/classify", {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ status: 200, body: toolResult(1), expectedId: 1 }),
  });
  assert.equal((await json(res, 200)).outcome, "TOOL_SUCCESS");
});
