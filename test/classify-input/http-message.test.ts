import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseHttpMessage } from "../../src/classify/index.ts";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/classify/${name}`, import.meta.url), "utf8");

function parsed(text: string) {
  const result = parseHttpMessage(text);
  assert.ok(result.ok, JSON.stringify(result));
  return result.message;
}

test("parses a curl -si capture with CRLF line ends into status, headers and body", () => {
  const message = parsed(fixture("503.http"));
  assert.equal(message.httpVersion, "1.1");
  assert.equal(message.status, 503);
  assert.equal(message.reason, "Service Unavailable");
  assert.equal(message.headers["Retry-After"], "2");
  assert.equal(message.headers["Content-Type"], "text/plain");
  assert.equal(message.body, "upstream overloaded\n");
  assert.equal(message.responses, 1);
});

test("parses the same capture with LF line ends", () => {
  const message = parsed(fixture("503.http").replaceAll("\r\n", "\n"));
  assert.equal(message.status, 503);
  assert.equal(message.headers["Retry-After"], "2");
  assert.equal(message.body, "upstream overloaded\n");
});

test("parses an HTTP/2 status line without a reason phrase", () => {
  const message = parsed('HTTP/2 200\r\ncontent-type: application/json\r\n\r\n{"jsonrpc":"2.0","id":1,"result":{}}');
  assert.equal(message.httpVersion, "2");
  assert.equal(message.status, 200);
  assert.equal(message.reason, "");
  assert.equal(message.body, '{"jsonrpc":"2.0","id":1,"result":{}}');
});

test("takes the last response after a 100 Continue", () => {
  const message = parsed(fixture("sse-after-100-continue.http"));
  assert.equal(message.status, 200);
  assert.equal(message.responses, 2);
  assert.equal(message.headers["Content-Type"], "text/event-stream");
  assert.match(message.body, /^event: message\ndata: \{"jsonrpc":"2.0","id":1,/);
});

test("takes the last response after a redirect that curl -L followed", () => {
  const message = parsed(fixture("redirect-then-tool-error.http"));
  assert.equal(message.status, 200);
  assert.equal(message.responses, 2);
  assert.equal(message.headers.Location, undefined);
  assert.match(message.body, /"isError":true/);
});

test("takes the last response after a proxy's 200 Connection established", () => {
  const message = parsed("HTTP/1.1 200 Connection established\r\n\r\nHTTP/2 503\r\nretry-after: 5\r\n\r\nbusy");
  assert.equal(message.status, 503);
  assert.equal(message.headers["retry-after"], "5");
  assert.equal(message.body, "busy");
});

test("de-chunks a body that is still in chunked framing (curl --raw)", () => {
  const message = parsed(fixture("tool-error-raw-chunked.http"));
  assert.equal(message.body, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"City not found: Atlantis"}],"isError":true}}');
});

test("keeps a body that curl already de-chunked although Transfer-Encoding says chunked", () => {
  const message = parsed(fixture("tool-error.http"));
  assert.equal(message.headers["Transfer-Encoding"], "chunked");
  assert.equal(JSON.parse(message.body).result.isError, true);
});

const chunked = (body: string) => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${body}`;

test("counts chunk sizes in UTF-8 bytes and accepts LF-only chunk framing and extensions", () => {
  assert.equal(parsed(chunked("5;name=x\nh\u00e9ll\n3\r\no w\r\n0\n\n")).body, "h\u00e9llo w");
});

test("keeps a body marked chunked as it is when it is not in chunked framing", () => {
  for (const body of ['{"jsonrpc":"2.0"}', "10\r\nshort\r\n", "5\r\nhello"]) {
    assert.equal(parsed(chunked(body)).body, body, JSON.stringify(body));
  }
});

test("joins repeated headers case-insensitively and unfolds obsolete line folding", () => {
  const message = parsed("HTTP/1.1 200 OK\nVary: Accept\nvary: Origin\nX-Long: one\n  two\n\nbody");
  assert.equal(message.headers.Vary, "Accept, Origin");
  assert.equal(message.headers["X-Long"], "one two");
  assert.equal(Object.keys(message.headers).length, 2);
});

test("accepts a response without a blank line or body", () => {
  const message = parsed("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n");
  assert.equal(message.status, 202);
  assert.equal(message.body, "");
});

test("skips leading blank lines and a byte order mark", () => {
  assert.equal(parsed("\uFEFF\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n").status, 204);
});

test("refuses garbage with a not_http_response error naming the line", () => {
  const result = parseHttpMessage('{"status": 200}');
  assert.deepEqual(result, {
    ok: false,
    error: { code: "not_http_response", message: `Expected a status line such as 'HTTP/1.1 200 OK', got "{\\"status\\": 200}".`, line: 1 },
  });
});

test("refuses empty text", () => {
  const result = parseHttpMessage(" \n\r\n");
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, "empty");
});

test("refuses a status line with a status that is not three digits", () => {
  const result = parseHttpMessage("HTTP/1.1 20 OK\r\n\r\n");
  assert.equal(!result.ok && result.error.code, "invalid_status_line");
  assert.equal(!result.ok && result.error.line, 1);
});

test("refuses a status outside 100-599", () => {
  const result = parseHttpMessage("HTTP/1.1 700 Odd\r\n\r\n");
  assert.equal(!result.ok && result.error.code, "invalid_status_line");
});

test("refuses a header line without a colon and names its line", () => {
  const result = parseHttpMessage("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nthis is not a header\r\n\r\n{}");
  assert.equal(!result.ok && result.error.code, "invalid_header");
  assert.equal(!result.ok && result.error.line, 3);
});
