import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  exchangeFromRawHttp,
  formatPath,
  looksLikeRawHttp,
  parseClassifyInput,
  parseExchangeInput,
  parseJsonText,
  sseBodyAlone,
} from "../../src/classify/index.ts";

const result = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "ok" }] } };

test("turns the flat form into an exchange whose response holds status, headers and body", () => {
  const input = parseClassifyInput({ status: 200, headers: { "content-type": "application/json" }, body: result, expectedId: 7 });
  assert.deepEqual(input, {
    ok: true,
    value: {
      kind: "single",
      exchange: { response: { status: 200, headers: { "content-type": "application/json" }, body: result }, expectedId: 7 },
    },
  });
});

test("keeps a string body as raw text", () => {
  const input = parseExchangeInput({ status: 200, body: "{not json" });
  assert.deepEqual(input, { ok: true, value: { response: { status: 200, body: "{not json" } } });
});

test("leaves method unset so the classifier can take it from the request body", () => {
  const input = parseExchangeInput({ request: { body: { jsonrpc: "2.0", id: 1, method: "ping" } }, response: { status: 200, body: "" } });
  assert.ok(input.ok);
  assert.equal("method" in input.value, false);
  assert.equal("expectedId" in input.value, false);
});

test("passes the nested form through with the request", () => {
  const exchange = {
    request: { headers: { "mcp-protocol-version": "2025-11-25" }, body: { jsonrpc: "2.0", id: "a", method: "tools/call" } },
    response: { status: 503, headers: { "retry-after": "2" }, body: "busy" },
    protocolVersion: "2025-11-25",
  };
  assert.deepEqual(parseClassifyInput(exchange), { ok: true, value: { kind: "single", exchange } });
});

test("accepts null as an already-parsed body", () => {
  assert.deepEqual(parseExchangeInput({ status: 200, body: null }), { ok: true, value: { response: { status: 200, body: null } } });
});

test("requires a body, and says so with the path", () => {
  const input = parseExchangeInput({ response: { status: 202 } });
  assert.deepEqual(!input.ok && input.error.issues, [{ path: "response.body", rule: "invalid_type", message: "Required" }]);
});

test("names an unknown field by its own path", () => {
  const input = parseExchangeInput({ status: 200, body: "", expected_id: 1 });
  assert.deepEqual(!input.ok && input.error.issues, [{ path: "expected_id", rule: "unrecognized_keys", message: 'Unknown field "expected_id"' }]);
});

test("refuses a fractional expectedId and a status outside 100-599", () => {
  const input = parseExchangeInput({ status: 99, body: "", expectedId: 1.5 });
  assert.deepEqual(!input.ok && input.error.issues.map(({ path }) => path), ["status", "expectedId"]);
});

test("refuses a header value that is not a string, naming the header", () => {
  const input = parseExchangeInput({ status: 200, headers: { "Retry-After": 5 }, body: "" });
  assert.equal(!input.ok && input.error.issues[0]?.path, "headers.Retry-After");
});

test("keeps the order of an array and prefixes element paths with their index", () => {
  const ok = parseClassifyInput([
    { status: 200, body: "a" },
    { response: { status: 503, body: "b" } },
  ]);
  assert.deepEqual(ok.ok && ok.value, {
    kind: "batch",
    exchanges: [{ response: { status: 200, body: "a" } }, { response: { status: 503, body: "b" } }],
  });
  const bad = parseClassifyInput([{ status: 200, body: "" }, { status: 200, body: "" }, { status: 200, body: "" }, { response: { status: "503", body: "" } }, 7]);
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.error.issues.map(({ path }) => path), ["3.response.status", "4"]);
  assert.match(!bad.ok ? bad.error.message : "", /^3\.response\.status: /);
});

test("refuses an array longer than maxExchanges with kind too_many and rule max_exchanges", () => {
  const input = parseClassifyInput(Array.from({ length: 3 }, () => ({ status: 200, body: "" })), { maxExchanges: 2 });
  assert.deepEqual(!input.ok && input.error, {
    kind: "too_many",
    message: "At most 2 exchanges per request; this array has 3",
    issues: [{ path: "(root)", rule: "max_exchanges", message: "At most 2 exchanges per request; this array has 3" }],
  });
});

test("accepts an empty array", () => {
  assert.deepEqual(parseClassifyInput([]), { ok: true, value: { kind: "batch", exchanges: [] } });
});

test("recognises a HAR document and returns its JSON-RPC entries", () => {
  const har = JSON.parse(readFileSync(new URL("../fixtures/classify/session.har", import.meta.url), "utf8"));
  const input = parseClassifyInput(har);
  assert.ok(input.ok && input.value.kind === "har");
  assert.deepEqual(input.value.entries.map(({ index }) => index), [0, 1, 3, 4]);
  assert.deepEqual(input.value.skipped.map(({ index }) => index), [2, 5]);
});

test("names the path of a broken HAR entry", () => {
  const input = parseClassifyInput({ log: { entries: [{ request: { headers: [] }, response: { status: "200" } }] } });
  assert.deepEqual(!input.ok && input.error.issues.map(({ path }) => path), ["log.entries.0.response.status"]);
});

test("applies maxExchanges to the JSON-RPC entries of a HAR", () => {
  const har = JSON.parse(readFileSync(new URL("../fixtures/classify/session.har", import.meta.url), "utf8"));
  const input = parseClassifyInput(har, { maxExchanges: 3 });
  assert.equal(!input.ok && input.error.kind, "too_many");
  assert.equal(!input.ok && input.error.issues[0]?.path, "log.entries");
});

test("refuses a root that is neither an object nor an array", () => {
  const input = parseClassifyInput("HTTP/1.1 200 OK");
  assert.equal(!input.ok && input.error.issues[0]?.path, "(root)");
  assert.match(!input.ok ? input.error.message : "", /expected an exchange object .* got string/i);
});

test("reports invalid JSON with its position, line and column", () => {
  const input = parseJsonText('{\n  "status": 200,\n  "body": }');
  assert.equal(input.ok, false);
  const issue = !input.ok ? input.error.issues[0] : undefined;
  assert.equal(issue?.rule, "invalid_json");
  assert.equal(issue?.path, "(root)");
  assert.match(issue?.message ?? "", /^The body is not valid JSON: /);
});

test("names the line and column of a JSON error when the runtime gives a position", () => {
  const input = parseJsonText('{"status": 200,\n "body": "x"');
  assert.match(!input.ok ? input.error.message : "", /position 28.*line 2 column 13/);
});

test("reports an empty JSON body as empty", () => {
  const input = parseJsonText("  ");
  assert.equal(!input.ok && input.error.issues[0]?.message, "The body is empty: expected JSON");
});

test("builds an exchange from a raw HTTP response and its parameters", () => {
  const input = exchangeFromRawHttp("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\n\r\nbusy", {
    expectedId: "1",
    method: "tools/call",
    protocolVersion: "2025-11-25",
  });
  assert.deepEqual(input, {
    ok: true,
    value: { response: { status: 503, headers: { "Retry-After": "2" }, body: "busy" }, expectedId: 1, method: "tools/call", protocolVersion: "2025-11-25" },
  });
});

test("reads expectedId=1 as the integer 1, a quoted id as a string and other text as a string", () => {
  const id = (expectedId: string) => {
    const input = exchangeFromRawHttp("HTTP/1.1 200 OK\r\n\r\n", { expectedId });
    return input.ok ? input.value.expectedId : input.error;
  };
  assert.equal(id("1"), 1);
  assert.equal(id("-3"), -3);
  assert.equal(id('"1"'), "1");
  assert.equal(id("req-7"), "req-7");
});

test("refuses an empty or unsafe expectedId and names the parameter by the caller's prefix", () => {
  const empty = exchangeFromRawHttp("HTTP/1.1 200 OK\r\n\r\n", { expectedId: "" }, (name) => `query.${name}`);
  assert.deepEqual(!empty.ok && empty.error.issues, [{ path: "query.expectedId", rule: "too_small", message: "must not be empty" }]);
  const huge = exchangeFromRawHttp("HTTP/1.1 200 OK\r\n\r\n", { expectedId: "99999999999999999999" });
  assert.match(!huge.ok ? huge.error.message : "", /^expectedId: 99999999999999999999 is outside the safe integer range; quote it/);
});

test("reports a broken raw HTTP response at the path (body) with its line", () => {
  const input = exchangeFromRawHttp("HTTP/1.1 200 OK\nno colon here\n\n");
  assert.deepEqual(!input.ok && input.error.issues, [
    { path: "(body)", rule: "invalid_header", message: `Invalid header line "no colon here": expected 'Name: value'. (line 2)` },
  ]);
});

test("tells raw HTTP from JSON by the leading HTTP/", () => {
  assert.equal(looksLikeRawHttp("\r\nHTTP/2 200\r\n\r\n"), true);
  assert.equal(looksLikeRawHttp('{"status":200}'), false);
});

test("formats paths dotted, indexes included, and odd keys quoted", () => {
  assert.equal(formatPath([3, "response", "status"]), "3.response.status");
  assert.equal(formatPath(["headers", "x y"]), 'headers."x y"');
  assert.equal(formatPath([]), "(root)");
});

test("refuses a JSON-RPC message or batch given alone, naming the missing status line, at the root or at an element", () => {
  const rule = "missing_status_line";
  const alone = parseClassifyInput(result);
  assert.deepEqual(!alone.ok && alone.error.issues.map((i) => [i.path, i.rule]), [["(root)", rule]]);
  assert.match(!alone.ok ? alone.error.message : "", /^\(root\): A JSON-RPC message alone, as `curl -s` prints a body: the status line and headers are missing/);
  const batch = parseClassifyInput([result, result]);
  assert.deepEqual(!batch.ok && batch.error.issues.map((i) => [i.path, i.rule]), [["(root)", rule]]);
  const mixed = parseClassifyInput([{ status: 200, body: "" }, result]);
  assert.deepEqual(!mixed.ok && mixed.error.issues.map((i) => [i.path, i.rule]), [["1", rule]]);
  // An exchange whose fields sit beside a stray jsonrpc key is an exchange with an unknown field, not a body alone.
  const exchange = parseClassifyInput({ status: 200, body: "", jsonrpc: "2.0" });
  assert.deepEqual(!exchange.ok && exchange.error.issues.map((i) => [i.path, i.rule]), [["jsonrpc", "unrecognized_keys"]]);
});

test("recognises an SSE stream given alone, and nothing else, as a body without its status line", () => {
  for (const text of ["event: message\ndata: {}\n\n", "data: {}\n\n", "\n: keep-alive\n\n", "id: 1\ndata: {}\n"]) {
    assert.equal(sseBodyAlone(text)?.issues[0]?.rule, "missing_status_line", text);
  }
  for (const text of ["{}", "Service Unavailable", "content-type: application/json\n\n{}", ""]) assert.equal(sseBodyAlone(text), undefined, text);
});
