import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { perform } from "../../src/faults/perform.ts";
import type { Fault } from "../../src/faults/schema.ts";
import { MAX_UPSTREAM_ANSWER_BYTES, upstreamAnswer } from "../../src/proxy/answer.ts";
import { UpstreamTrace } from "../../src/proxy/journal.ts";
import { Deadline } from "../../src/wire/deadline.ts";
import { countedSseStream, until } from "../helpers/counted-stream.ts";

// Issue 27, finding 2, on the alter path: a fault that changes an upstream's answer reads the upstream's stream
// itself (src/proxy/answer.ts). An upstream that could send 50 MB of notifications before (or instead of) its answer
// is read at most MAX_UPSTREAM_ANSWER_BYTES, and no faster than the client reads what is passed on.

const CHUNK = 64 * 1024;
const OFFER = 50 * 1024 * 1024;
/** What may be read ahead of a client that reads nothing: the message being handed over and the stream's queue. */
const AHEAD = 8 * CHUNK;

/** A pull-based upstream SSE answer of 64 KiB notifications, OFFER bytes of them, then (if `answers`) the answer. */
function upstream(options: { answers?: boolean; offer?: number } = {}) {
  const offer = options.offer ?? OFFER;
  const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "" } });
  const event = new TextEncoder().encode(`data: ${note.replace('"data":""', `"data":"${"x".repeat(CHUNK - note.length - 8)}"`)}\n\n`);
  const answer = new TextEncoder().encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } })}\n\n`);
  return countedSseStream(event, offer, options.answers ? answer : undefined);
}

/** The fault interpreter on the upstream's answer, as proxy mode composes them (src/proxy/source.ts `reply`). */
async function alter(fault: Fault, response: Response, deadline = new Deadline(Date.now(), 60)) {
  const trace = new UpstreamTrace("http://127.0.0.1:9/mcp", "alter");
  const answered = await perform(fault, {
    era: "modern",
    requestId: 1,
    stream: false,
    reply: async () => {
      const reply = await upstreamAnswer(response, 1, trace, deadline);
      assert.notEqual(reply, "timeout");
      return reply as Exclude<typeof reply, "timeout">;
    },
    origin: "http://127.0.0.1",
    waitUntil: () => undefined,
    deadline,
  });
  return { answered, trace, deadline };
}


test("a fault that needs an upstream's whole answer (malformed.wrong_content_type) reads at most 4 MiB of a 50 MB stream, then says in the answer and the journal that it was cut", async () => {
  const { state, response } = upstream({ answers: true });
  const { answered, trace } = await alter({ kind: "malformed", variant: "wrong_content_type" }, response);
  const body = await answered.text();
  assert.ok(state.pulled <= MAX_UPSTREAM_ANSWER_BYTES + CHUNK, `pulled ${state.pulled} bytes of the upstream's stream`);
  assert.ok(state.cancelled, "the rest of the upstream's stream was cancelled, not left open");
  assert.match(body, /more than 4194304 bytes on its stream/, "the client's answer is the error naming the limit");
  const side = await trace.done();
  assert.match(side.entry.error ?? "", /more than 4194304 bytes on its stream without the answer, the most a fault reads/);
  assert.ok(side.body && side.body.bytes <= MAX_UPSTREAM_ANSWER_BYTES, `the journal claims ${side.body?.bytes} bytes read, the most it may is ${MAX_UPSTREAM_ANSWER_BYTES}`);
  assert.ok(side.body.text.length <= MAX_UPSTREAM_ANSWER_BYTES, "the upstream's text kept for the journal is within the bound");
});

test("an upstream's answer after its notifications still reaches a fault when the stream is under the bound", async () => {
  const { state, response } = upstream({ answers: true, offer: 10 * CHUNK });
  const { answered, trace } = await alter({ kind: "malformed", variant: "wrong_content_type" }, response);
  assert.equal(await answered.text(), JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }), "the real answer, under the fault's content type");
  assert.equal(state.pulled, 10 * CHUNK);
  assert.equal((await trace.done()).entry.error, undefined);
});

test("notifications passed on (streams.cut_before_response) to a client that reads nothing are read from the upstream no faster than the client takes them", async () => {
  const { state, response } = upstream();
  const { answered } = await alter({ kind: "cut_stream", priming: false, retryMs: 0 }, response);
  await sleep(300);
  assert.ok(state.pulled <= AHEAD, `pulled ${state.pulled} bytes of the upstream's stream for a client that read none`);
  const reader = answered.body!.getReader();
  let read = 0;
  for (let i = 0; i < 3; i++) read += (await reader.read()).value!.byteLength;
  await sleep(100);
  assert.ok(state.pulled <= read + AHEAD, `pulled ${state.pulled} bytes for a client that read ${read}`);
  await reader.cancel();
  await until(() => state.cancelled, "the upstream's stream was cancelled once the client went away", 300);
  assert.ok(state.pulled <= read + AHEAD + CHUNK, `pulled ${state.pulled} bytes in all for a client that read ${read}`);
});

test("an upstream stream that never sends its answer is read until the response deadline, and the answer says so", { timeout: 20_000 }, async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(": open\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  const response = new Response(stream, { headers: { "content-type": "text/event-stream" } });
  const { answered, trace, deadline } = await alter({ kind: "malformed", variant: "wrong_content_type" }, response, new Deadline(Date.now(), 0.2));
  const body = await answered.text();
  assert.match(body, /did not send its answer within the 0.2 s response deadline/);
  assert.equal(deadline.cut, true, "the exchange is marked as cut by the deadline");
  assert.ok(cancelled, "the upstream's stream was cancelled");
  assert.match((await trace.done()).entry.error ?? "", /response deadline/);
});
