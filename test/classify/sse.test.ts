// parseSse() reads streams the way the HTML standard's event-stream interpretation does; the reference
// below follows its wording step by step (split into lines, then one field per line), and the
// one-pass parser must agree with it on any stream.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseSse } from "../../src/classify/index.ts";
import type { SseEvent, SseStream } from "../../src/classify/index.ts";

function referenceParse(text: string): SseStream {
  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split(/\r\n|\r|\n/);
  const tail = lines.pop() ?? "";
  const stream: SseStream = { events: [], comments: 0, invalidRetry: [] };
  let block = { type: "", data: [] as string[], id: undefined as string | undefined, retry: undefined as number | undefined, fields: 0 };
  const fresh = () => ({ type: "", data: [] as string[], id: undefined as string | undefined, retry: undefined as number | undefined, fields: 0 });
  const event = (): SseEvent => {
    const e: SseEvent = { type: block.type === "" ? "message" : block.type, data: block.data.join("\n"), hasData: block.data.length > 0 };
    if (block.id !== undefined) e.id = block.id;
    if (block.retry !== undefined) e.retry = block.retry;
    return e;
  };
  const apply = (line: string) => {
    if (line.startsWith(":")) {
      stream.comments++;
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") block.data.push(value);
    else if (field === "event") block.type = value;
    else if (field === "id") {
      if (!value.includes("\u0000")) {
        block.id = value;
        stream.lastEventId = value;
      }
    } else if (field === "retry") {
      if (/^\d+$/.test(value)) {
        block.retry = Math.min(Number.parseInt(value, 10), Number.MAX_SAFE_INTEGER);
        stream.retryMs = block.retry;
      } else stream.invalidRetry.push(value);
    } else return;
    block.fields++;
  };
  for (const line of lines) {
    if (line === "") {
      if (block.fields > 0) stream.events.push(event());
      block = fresh();
    } else apply(line);
  }
  if (tail !== "") apply(tail);
  if (block.fields > 0) stream.unterminated = event();
  return stream;
}

const piece = fc.oneof(
  fc.constantFrom("\n", "\r", "\r\n", "\n\n", "\r\n\r\n", "\r\r", ":", ": comment", "\uFEFF", " ", "\u0000"),
  fc.constantFrom("data", "data:", "data: ", "data:x", "event:", "event: message", "event: ping", "id", "id: 7", "id:", "retry: 10", "retry: x", "retry:", "dat", "ids: 1", "eventx: 1"),
  fc.string({ maxLength: 6 }),
);
const streamText = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

test("parseSse reads every stream the way the standard's line-by-line reading does", () => {
  fc.assert(
    fc.property(streamText, (text) => {
      assert.deepEqual(parseSse(text), referenceParse(text));
    }),
    { numRuns: 3000 },
  );
});

test("a data field split over CRLF, CR and LF line ends joins its lines with LF", () => {
  const { events } = parseSse('data: {"a":\r\ndata: 1\rdata: }\n\n');
  assert.deepEqual(events, [{ type: "message", data: '{"a":\n1\n}', hasData: true }]);
});

test("a leading byte-order mark is skipped, and a stream ending inside an event leaves it undispatched", () => {
  const stream = parseSse("\uFEFFid: 1\ndata: a\n\ndata: b");
  assert.deepEqual(stream.events, [{ type: "message", data: "a", hasData: true, id: "1" }]);
  assert.deepEqual(stream.unterminated, { type: "message", data: "b", hasData: true });
  assert.equal(stream.lastEventId, "1");
});

/** A stand-in for the text that counts the characters parseSse's string operations read. */
function countingText(real: string): { text: string; read: () => number } {
  let read = 0;
  const text = {
    length: real.length,
    charCodeAt(index: number) {
      read++;
      return real.charCodeAt(index);
    },
    indexOf(search: string, from = 0) {
      const found = real.indexOf(search, from);
      read += (found < 0 ? real.length : found + search.length) - Math.min(from, real.length);
      return found;
    },
    startsWith(search: string, at = 0) {
      read += search.length;
      return real.startsWith(search, at);
    },
    slice(start: number, end?: number) {
      const out = real.slice(start, end);
      read += out.length;
      return out;
    },
  };
  return { text: text as unknown as string, read: () => read };
}

test("parseSse reads each character a bounded number of times, however the lines are made", () => {
  const streams = {
    "lines without a colon": "x\n".repeat(20_000),
    "data fields without a colon": "data\n".repeat(10_000),
    "one colon at the very end": `${"abcdef\n".repeat(5_000)}:`,
    "CR line ends": "data: 1\r\r".repeat(5_000),
    "unknown long field names": "datadatadata: 1\n\n".repeat(3_000),
    "ordinary events": 'id: 7\nevent: message\ndata: {"jsonrpc":"2.0"}\n\n'.repeat(2_000),
  };
  for (const [name, real] of Object.entries(streams)) {
    const { text, read } = countingText(real);
    assert.deepEqual(parseSse(text), parseSse(real), name);
    assert.ok(read() <= 8 * real.length, `${name}: ${read()} characters read for a ${real.length}-character stream`);
  }
});
