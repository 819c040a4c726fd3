import { test } from "node:test";
import assert from "node:assert/strict";
import { perform, replyWith } from "../../src/faults/perform.ts";
import { FaultSchema } from "../../src/faults/schema.ts";
import { Deadline } from "../../src/wire/deadline.ts";
import { bodyText } from "../../src/wire/response.ts";

// A fault's answer made from a string is known whole (textResponse): the journal and the recording then take that
// string as it is, with no relay of their own, and the exchange ends as the answer is handed on. Each case here is a
// fault whose whole body is a string: its known text must be exactly the bytes the client reads.

const cases: [string, Record<string, unknown>, boolean][] = [
  ["an injected 503 with a text body", { kind: "http_status", status: 503, body: "text" }, false],
  ["an injected 502 with an HTML page", { kind: "http_status", status: 502, body: "html" }, false],
  ["an injected 500 with a JSON-RPC error", { kind: "http_status", status: 500, body: "jsonrpc" }, false],
  ["a 429 with a text body", { kind: "rate_limited", retryAfter: 1, body: "text" }, false],
  ["invalid JSON", { kind: "malformed", variant: "invalid_json" }, false],
  ["invalid JSON in an SSE event", { kind: "malformed", variant: "invalid_json" }, true],
  ["truncated JSON", { kind: "malformed", variant: "truncated_json" }, false],
  ["the answer with a wrong content type", { kind: "malformed", variant: "wrong_content_type" }, false],
  ["an HTML page in place of the answer", { kind: "malformed", variant: "html_page" }, false],
];

for (const [name, fault, stream] of cases) {
  test(`${name} is an answer known whole: its known text is the body the client reads`, async () => {
    const response = await perform(FaultSchema.parse(fault), {
      era: "modern",
      requestId: 7,
      stream,
      reply: replyWith({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hello" }] } }),
      origin: "http://127.0.0.1:1",
      waitUntil: () => undefined,
      deadline: new Deadline(Date.now(), 60),
    });
    const known = bodyText(response);
    assert.notEqual(known, undefined, "the body is a stream the journal must relay");
    assert.equal(known, await response.text());
  });
}
