import { test } from "node:test";
import assert from "node:assert/strict";
import { classify } from "../../src/classify/index.ts";
import { exchangesFromHar, HarSchema } from "../../src/classify/index.ts";

const CALL = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
const RESULT = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi" }] } };
const SSE = [{ name: "Content-Type", value: "text/event-stream" }];

const cutPost = (eventId: string) => ({
  request: { method: "POST", url: "https://x.test/mcp", headers: [], postData: { text: JSON.stringify(CALL) } },
  response: { status: 200, headers: SSE, content: { text: `id: ${eventId}\nretry: 500\ndata: \n\n` } },
});
const resumeGet = (lastEventId: string | undefined, data: unknown = RESULT) => ({
  request: { method: "GET", url: "https://x.test/mcp", headers: lastEventId === undefined ? [] : [{ name: "Last-Event-ID", value: lastEventId }] },
  response: { status: 200, headers: SSE, content: { text: `id: ${lastEventId}-resumed\nevent: message\ndata: ${JSON.stringify(data)}\n\n` } },
});
const har = (...entries: object[]) => HarSchema.parse({ log: { entries } });

test("a GET that resumes a cut stream with Last-Event-ID is classified as the answer to the request whose stream sent that id", () => {
  const { exchanges, skipped } = exchangesFromHar(har(cutPost("e-1"), resumeGet("e-1")));
  assert.deepEqual(skipped, []);
  assert.deepEqual(exchanges.map(({ index, method, id }) => ({ index, method, id })), [
    { index: 0, method: "tools/call", id: 7 },
    { index: 1, method: "tools/call", id: 7 },
  ]);
  assert.equal(classify(exchanges[0]!.exchange).outcome, "STREAM_INCOMPLETE");
  assert.equal(classify(exchanges[1]!.exchange).outcome, "TOOL_SUCCESS");
});

test("a resumed stream is held to the original request's id: a result with another id is not the call's answer", () => {
  const { exchanges } = exchangesFromHar(har(cutPost("e-1"), resumeGet("e-1", { ...RESULT, id: 8 })));
  assert.notEqual(classify(exchanges[1]!.exchange).outcome, "TOOL_SUCCESS");
});

test("a resumption of a resumed stream still belongs to the first request", () => {
  const { exchanges } = exchangesFromHar(har(cutPost("e-1"), resumeGet("e-1", { jsonrpc: "2.0", method: "notifications/progress", params: {} }), resumeGet("e-1-resumed")));
  assert.deepEqual(exchanges.map(({ index, id }) => ({ index, id })), [{ index: 0, id: 7 }, { index: 1, id: 7 }, { index: 2, id: 7 }]);
});

test("a GET SSE stream that no earlier stream explains is listed in skipped with the reason, never dropped", () => {
  const { exchanges, skipped } = exchangesFromHar(har(resumeGet(undefined), resumeGet("unknown")));
  assert.deepEqual(exchanges, []);
  assert.deepEqual(skipped, [
    { index: 0, reason: "a GET SSE stream without Last-Event-ID: it answers no request (server-initiated messages only)" },
    { index: 1, reason: 'a GET SSE stream resuming Last-Event-ID "unknown", which no earlier JSON-RPC entry\'s stream sent: no request to classify it against' },
  ]);
});
