import { test } from "node:test";
import assert from "node:assert/strict";
import { HELD_MAX_BYTES, perform } from "../../src/faults/perform.ts";
import { FaultSchema } from "../../src/faults/schema.ts";
import { Deadline } from "../../src/wire/deadline.ts";

// The buffered fault's hold of a stream's events is bounded: what the server behind sends while it is held (an
// upstream's notifications, in proxy mode, can be without end) is flushed whenever the held bytes reach HELD_MAX_BYTES,
// as a proxy whose buffers are full sends what it holds; below that, everything comes in one write at the end.

/** Performs an events hold over a source that emits `count` notifications of `bytes` bytes each before its answer. */
async function chunksOf(count: number, bytes: number): Promise<string[]> {
  const pending: Promise<unknown>[] = [];
  const response = await perform(FaultSchema.parse({ kind: "buffered", hold: "events", ms: 0 }), {
    era: "modern",
    requestId: 1,
    stream: true,
    reply: async () => ({
      answer: async (emit) => {
        for (let i = 0; i < count; i++) await emit?.({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(bytes) } });
        return { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } };
      },
    }),
    origin: "http://127.0.0.1:1",
    waitUntil: (promise) => void pending.push(promise),
    deadline: new Deadline(Date.now(), 60),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(decoder.decode(value));
  }
  await Promise.all(pending);
  return chunks;
}

test("a held stream below the bound reaches the client in one write at the end: every notification and the answer together", async () => {
  const chunks = await chunksOf(10, 100);
  assert.equal(chunks.length, 1);
  assert.equal((chunks[0]!.match(/notifications\/message/g) ?? []).length, 10);
  assert.match(chunks[0]!, /"result"/);
});

test("a held stream past the bound is flushed each time the held bytes reach it, so no write holds much more than the bound", async () => {
  const chunks = await chunksOf(600, 1_000);
  assert.ok(chunks.length >= 2, `one write of ${chunks[0]?.length} bytes: nothing was flushed`);
  for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= HELD_MAX_BYTES && chunk.length < HELD_MAX_BYTES + 2_000, `a flush of ${chunk.length} bytes`);
  const all = chunks.join("");
  assert.equal((all.match(/notifications\/message/g) ?? []).length, 600);
  assert.match(chunks.at(-1)!, /"result"/);
});
