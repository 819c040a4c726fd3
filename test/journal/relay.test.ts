import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { journalled } from "../../src/journal/recorder.ts";
import type { JournalEntry, NewJournalEntry } from "../../src/journal/entry.ts";
import { recordExchange } from "../../src/recording/recorder.ts";
import type { RecordedExchange } from "../../src/recording/exchange.ts";
import { Deadline } from "../../src/wire/deadline.ts";
import { countedSseStream, until } from "../helpers/counted-stream.ts";

// Issue 27, finding 2: the journal's and the recording's copies of a streamed answer are paced by the client's
// reading. A source that could send 50 MB to a client that reads nothing is read at most BOUND bytes ahead, and what
// is journalled is what the client was sent.

const CHUNK = 64 * 1024;
const OFFER = 50 * 1024 * 1024;
/**
 * The bound on what is pulled from the source ahead of the client: each relay (recording, then journal) holds at most
 * the one chunk it is handing over, and the Response may ask for one more; 4 chunks (256 KiB) leave room for both.
 */
const BOUND = 4 * CHUNK;

/** A pull-based SSE source offering OFFER bytes, counting what was pulled from it, and whether it was cancelled. */
function source() {
  const event = new TextEncoder().encode(`data: ${"x".repeat(CHUNK - 8)}\n\n`);
  return countedSseStream(event, OFFER);
}

/** The answer to a request through the recorder and then the journal, as the session object chains them. */
function serve(response: Response, deadline?: Deadline) {
  const started = Date.now();
  const request = new Request("http://127.0.0.1/mcp", { method: "POST" });
  const journal: NewJournalEntry[] = [];
  const recording: RecordedExchange[] = [];
  const sink = { key: () => new Uint8Array(32), append: (e: RecordedExchange) => void recording.push(e) };
  const recorded = recordExchange(sink, { started, request, requestText: "", response }, { waitUntil: () => undefined, afterResponse: (task) => void setTimeout(task, 0) });
  const sent = journalled(request, { response: recorded, ...(deadline ? { deadline } : {}) }, {
    started,
    scenario: "baseline",
    bodyCap: 1024,
    keepClientIp: false,
    clientInfoFor: () => undefined,
    record: (entry) => (journal.push(entry), { seq: journal.length, ...entry }) as JournalEntry,
    waitUntil: () => undefined,
    afterResponse: (task) => void setTimeout(task, 0),
  });
  return { sent, journal, recording };
}


test("a client that reads nothing for a while makes the journal and the recording pull at most 256 KiB of a 50 MB stream", async () => {
  const { state, response } = source();
  const { sent, journal, recording } = serve(response);
  await sleep(300);
  assert.ok(state.pulled <= BOUND, `pulled ${state.pulled} bytes from the source for a client that read none`);
  // The client reads three chunks, then goes away.
  const reader = sent.body!.getReader();
  let read = 0;
  for (let i = 0; i < 3; i++) read += (await reader.read()).value!.byteLength;
  await sleep(100);
  assert.ok(state.pulled <= read + BOUND, `pulled ${state.pulled} bytes for a client that read ${read}`);
  await reader.cancel();
  await until(() => journal.length === 1 && recording.length === 1, "the exchange was journalled and recorded once the client went away", 200);
  assert.ok(state.cancelled, "the source was cancelled when the client went away");
  const entry = journal[0]!;
  assert.equal(entry.response.body.bytes, read, "the journal counts the bytes the client was sent");
  assert.equal(typeof entry.response.clientClosedAtMs, "number", "the journal says the client went away");
  assert.equal(entry.response.sseEvents?.length, 3, "the events the client was sent, no more");
  assert.equal(recording[0]!.response.events?.length, 3);
  assert.equal(typeof recording[0]!.response.clientClosedAtMs, "number");
  // The verdict is on what the client was sent: its three events (their data is not JSON), not on what the source had.
  assert.equal(entry.verdict?.findings.filter((f) => f.code === "SSE_DATA_NOT_JSON").length, 3);
});

test("a client that never reads is cut after the response deadline, and the exchange is journalled with what it was sent", async () => {
  const { state, response } = source();
  const { sent, journal } = serve(response, new Deadline(Date.now(), 0.1));
  assert.ok(sent.body);
  await until(() => journal.length === 1, "the exchange was journalled although the client read nothing", 200);
  assert.ok(state.pulled <= BOUND, `pulled ${state.pulled} bytes`);
  assert.ok(state.cancelled, "the source was released");
  assert.equal(journal[0]!.response.cutByDeadline, true);
  assert.equal(journal[0]!.response.body.bytes, 0, "nothing is claimed that the client was not sent");
});

test("a client that reads everything gets the whole stream through both copies, and the journal counts all of it", async () => {
  const event = new TextEncoder().encode("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 5; i++) controller.enqueue(event);
      controller.close();
    },
  });
  const { sent, journal, recording } = serve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
  const text = await sent.text();
  assert.equal(text.length, event.byteLength * 5);
  await until(() => journal.length === 1 && recording.length === 1, "journalled and recorded", 200);
  assert.equal(journal[0]!.response.body.bytes, event.byteLength * 5);
  assert.equal(journal[0]!.response.clientClosedAtMs, undefined);
  assert.equal(recording[0]!.response.body.text, text);
  assert.equal(recording[0]!.response.events?.length, 5);
});
