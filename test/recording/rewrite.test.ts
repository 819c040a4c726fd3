import { test } from "node:test";
import assert from "node:assert/strict";
import { parseSse } from "../../src/classify/index.ts";
import { rewriteSseText, sseMessages, type Rewrite } from "../../src/recording/rewrite.ts";

// The recording reads SSE as the classifier's parseSse does (issue 23: one parser), so a replay finds the messages
// a client's SSE parser would, whatever line ends the recorded server used.

const answer = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } });
const rewrite: Rewrite = { recordedId: 1, newId: 9, issueState: (s) => s };

test("the messages of a recorded stream are those parseSse dispatches, with CRLF, LF, CR and mixed line ends", () => {
  const text = `data: ${answer(1)}\r\n\r\n: comment\n\nevent: message\rdata: ${answer(2)}\r\rdata: ${answer(3)}\n\r\n`;
  assert.deepEqual(
    sseMessages(text).map((m) => (m as { id: number }).id),
    parseSse(text).events.map((e) => JSON.parse(e.data).id),
  );
  assert.equal(sseMessages(text).length, 3);
});

test("a data field split over two lines, or written without a colon, is read as parseSse reads it", () => {
  const text = `data: {"jsonrpc":"2.0","id":1,\ndata: "result":{}}\n\n`;
  assert.deepEqual(sseMessages(text), [{ jsonrpc: "2.0", id: 1, result: {} }]);
  assert.deepEqual(sseMessages("data\n\n"), [], "an empty data field holds no message");
});

test("a rewritten stream keeps its ids, event types, comments and the blank lines between events, and carries the new id", () => {
  const text = `: primed\r\n\r\nid: 7\r\nevent: message\r\ndata: ${answer(1)}\r\n\r\ndata: ${answer(2)}\n\n`;
  const out = rewriteSseText(text, rewrite);
  assert.ok(out.startsWith(": primed\r\n\r\n"), JSON.stringify(out));
  assert.ok(out.endsWith(`\r\n\r\ndata: ${answer(2)}\n\n`), "an event without the recorded id stays byte for byte");
  const events = parseSse(out).events;
  assert.deepEqual(events.map((e) => [e.id, e.type]), [["7", "message"], [undefined, "message"]]);
  assert.deepEqual(events.map((e) => JSON.parse(e.data).id), [9, 2], "only the answer to the recorded request changes");
});

test("a stream whose events end with a line end and a blank line of another kind is still cut into its events", () => {
  const text = `data: ${answer(1)}\n\r\ndata: ${answer(2)}\n\r\n`;
  assert.deepEqual(
    parseSse(rewriteSseText(text, rewrite)).events.map((e) => JSON.parse(e.data).id),
    [9, 2],
  );
});
