import { test } from "node:test";
import assert from "node:assert/strict";
import { joined } from "../../src/base/bytes.ts";
import { exactText, readPrefix, resumed } from "../../src/proxy/whole-body.ts";
import { Deadline } from "../../src/wire/deadline.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

/** A body that gives `chunks`, then ends, errors with `error`, or never ends ("open"). */
function body(chunks: Uint8Array[], then: "end" | "open" | Error = "end"): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) return controller.enqueue(chunks[next++]!);
      if (then === "end") return controller.close();
      if (then instanceof Error) return controller.error(then);
      return new Promise<void>(() => undefined);
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of stream) out.push(...chunk);
  return out;
}

test("a body within the bound is read to its end, every chunk in order", async () => {
  const read = await readPrefix(body([bytes(1, 2), bytes(3)]), 10, new Deadline(Date.now(), 5));
  assert.equal(read.end, "ended");
  assert.deepEqual([...joined(read.chunks, read.bytes)], [1, 2, 3]);
});

test("a body past the bound stops one chunk past it, and the chunks read and the rest give the whole body again", async () => {
  const read = await readPrefix(body([bytes(1, 2, 3, 4), bytes(5, 6, 7, 8), bytes(9, 10, 11, 12), bytes(13)]), 6, new Deadline(Date.now(), 5));
  assert.equal(read.end, "over");
  assert.equal(read.bytes, 8, "two chunks of four: the second goes past 6");
  assert.deepEqual(await all(resumed(read.chunks, read.rest)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
});

test("a body that has not ended by the deadline ends the read there, with what came", { timeout: 10_000 }, async () => {
  const read = await readPrefix(body([bytes(1)], "open"), 10, new Deadline(Date.now(), 0.05));
  assert.equal(read.end, "timeout");
  assert.deepEqual([...joined(read.chunks, read.bytes)], [1]);
});

test("a body that fails midway ends the read with its error and what came before it", async () => {
  const broken = new Error("connection reset");
  const read = await readPrefix(body([bytes(7, 8)], broken), 10, new Deadline(Date.now(), 5));
  assert.equal(read.end, "failed");
  assert.equal(read.error, broken);
  assert.deepEqual([...joined(read.chunks, read.bytes)], [7, 8]);
});

test("exact UTF-8 reads as text with its byte order mark kept; anything else is not text", () => {
  assert.equal(exactText(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d)), "\ufeff{}");
  assert.equal(exactText(bytes(0x7b, 0xff, 0x7d)), undefined);
  assert.equal(exactText(bytes(0xc3)), undefined, "a sequence cut short");
  // One decoder serves every answer: a read that failed on a cut sequence leaves nothing for the next one.
  assert.equal(exactText(bytes(0xa9, 0x41)), undefined, "a continuation byte alone");
  assert.equal(exactText(bytes(0xe2, 0x82)), undefined);
  assert.equal(exactText(bytes(0xac, 0x41)), undefined, "the rest of the cut sequence is not joined to it");
  assert.equal(exactText(bytes(0x41)), "A");
});
