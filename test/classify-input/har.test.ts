import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ExchangeSchema, exchangesFromHar, HarSchema, looksLikeHar } from "../../src/classify/index.ts";

const sessionHar = () => HarSchema.parse(JSON.parse(readFileSync(new URL("../fixtures/classify/session.har", import.meta.url), "utf8")));

function harWith(entry: object) {
  return HarSchema.parse({ log: { version: "1.2", entries: [entry] } });
}

const postEntry = (text: string, response: object) => ({
  request: { method: "POST", url: "https://x.test/mcp", headers: [], postData: { mimeType: "application/json", text } },
  response: { status: 200, headers: [], content: { size: 0, mimeType: "application/json" }, ...response },
});

test("reads the JSON-RPC entries of a HAR and leaves GET streams and assets out", () => {
  const { exchanges } = exchangesFromHar(sessionHar());
  assert.deepEqual(
    exchanges.map(({ index, method, id }) => ({ index, method, id })),
    [
      { index: 0, method: "initialize", id: 1 },
      { index: 1, method: "notifications/initialized", id: null },
      { index: 3, method: "tools/call", id: 2 },
      { index: 4, method: "tools/call", id: 3 },
    ],
  );
});

test("produces exchanges that satisfy ExchangeSchema", () => {
  for (const { exchange } of exchangesFromHar(sessionHar()).exchanges) {
    assert.equal(ExchangeSchema.safeParse(exchange).success, true);
  }
});

test("passes the parsed request body and the request headers through", () => {
  const entry = exchangesFromHar(sessionHar()).exchanges.find(({ index }) => index === 4);
  assert.deepEqual(entry?.exchange.request?.body, {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "get_weather", arguments: { city: "Atlantis" } },
  });
  assert.equal(entry?.exchange.request?.headers?.["MCP-Protocol-Version"], "2025-11-25");
});

test("decodes a base64 response body as UTF-8", () => {
  const entry = exchangesFromHar(sessionHar()).exchanges.find(({ index }) => index === 3);
  assert.equal(typeof entry?.exchange.response.body, "string");
  assert.match(String(entry?.exchange.response.body), /^event: message\ndata: \{"jsonrpc":"2.0","id":2,"result"/);
});

test("decodes multi-byte characters from base64 content", () => {
  const text = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"18\u00b0C \u2600"}]}}';
  const har = harWith(postEntry('{"jsonrpc":"2.0","id":1,"method":"tools/call"}', { content: { text: btoa(String.fromCharCode(...new TextEncoder().encode(text))), encoding: "base64" } }));
  assert.equal(exchangesFromHar(har).exchanges[0]?.exchange.response.body, text);
});

test("drops HTTP/2 pseudo-headers from the response headers", () => {
  const entry = exchangesFromHar(sessionHar()).exchanges.find(({ index }) => index === 3);
  assert.deepEqual(entry?.exchange.response.headers, { "content-type": "text/event-stream" });
});

test("adds content-type from content.mimeType when the headers lack one", () => {
  const har = harWith(postEntry('{"jsonrpc":"2.0","id":1,"method":"ping"}', { content: { mimeType: "application/json", text: "{}" } }));
  assert.deepEqual(exchangesFromHar(har).exchanges[0]?.exchange.response.headers, { "content-type": "application/json" });
});

test("joins repeated header names case-insensitively", () => {
  const har = harWith(
    postEntry('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
      headers: [
        { name: "Vary", value: "Accept" },
        { name: "vary", value: "Origin" },
        { name: "Content-Type", value: "application/json" },
      ],
    }),
  );
  assert.deepEqual(exchangesFromHar(har).exchanges[0]?.exchange.response.headers, { Vary: "Accept, Origin", "Content-Type": "application/json" });
});

test("reports a JSON-RPC entry without a response (status 0) as skipped", () => {
  assert.deepEqual(exchangesFromHar(sessionHar()).skipped, [
    { index: 2, reason: "a GET SSE stream without Last-Event-ID: it answers no request (server-initiated messages only)" },
    { index: 5, reason: "response.status 0 is not an HTTP status: no response was recorded" },
  ]);
});

test("reports a JSON-RPC entry with broken base64 content as skipped", () => {
  const har = harWith(postEntry('{"jsonrpc":"2.0","id":1,"method":"ping"}', { content: { text: "%%%", encoding: "base64" } }));
  assert.deepEqual(exchangesFromHar(har), { exchanges: [], skipped: [{ index: 0, reason: "response.content.text is not valid base64" }] });
});

test("leaves out entries whose body is not a JSON-RPC request: plain JSON, batches, responses, non-JSON", () => {
  const bodies = ['{"query":"x"}', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', '{"jsonrpc":"2.0","id":1,"result":{}}', "a=1&b=2"];
  const har = HarSchema.parse({ log: { entries: bodies.map((text) => postEntry(text, {})) } });
  assert.deepEqual(exchangesFromHar(har), { exchanges: [], skipped: [] });
});

test("uses an empty body when the HAR did not record the response text", () => {
  const har = harWith(postEntry('{"jsonrpc":"2.0","method":"notifications/initialized"}', { status: 202 }));
  assert.equal(exchangesFromHar(har).exchanges[0]?.exchange.response.body, "");
});

test("detects a HAR by its log object, and not an exchange that happens to have a log field", () => {
  assert.equal(looksLikeHar({ log: { entries: [] } }), true);
  assert.equal(looksLikeHar({ log: "x" }), false);
  assert.equal(looksLikeHar({ status: 200, body: "", log: {} }), false);
  assert.equal(looksLikeHar([{ log: {} }]), false);
});
