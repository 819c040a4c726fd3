import { test } from "node:test";
import assert from "node:assert/strict";
import { AFTER_RESPONSE_MAX, WRITE_BEHIND_MS, WriteBehind } from "../../src/session/write-behind.ts";

// The session's write-behind on its own: when what waits in memory is written.

test("what waits is written once the last exchange in flight ends, not before, and an end counted twice counts once", () => {
  let writes = 0;
  const writer = new WriteBehind(() => writes++);
  const first = writer.begin();
  const second = writer.begin();
  first();
  first();
  assert.equal(writes, 0, "one exchange is still in flight");
  second();
  assert.equal(writes, 1);
});

test("a first waiting row starts one timer that writes after WRITE_BEHIND_MS, and a flush cancels it", async () => {
  let writes = 0;
  const writer = new WriteBehind(() => writes++);
  writer.soon();
  writer.soon();
  await new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_MS * 5));
  assert.equal(writes, 1);
  writer.soon();
  writer.flush();
  await new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_MS * 5));
  assert.equal(writes, 2, "the flush wrote, and its timer was cancelled");
});

test("a task given to afterResponse runs at the next turn, in order; settle runs the waiting ones at once, and a flush runs them before it writes", async () => {
  const ran: string[] = [];
  const writer = new WriteBehind(() => ran.push("write"));
  writer.afterResponse(() => ran.push("a"));
  writer.afterResponse(() => ran.push("b"));
  assert.equal(ran.length, 0, "nothing runs in the turn that released the response");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(ran, ["a", "b"]);

  writer.afterResponse(() => ran.push("c"));
  writer.settle();
  assert.deepEqual(ran, ["a", "b", "c"], "settle ran the waiting task in the same turn");
  writer.afterResponse(() => ran.push("d"));
  writer.flush();
  assert.deepEqual(ran, ["a", "b", "c", "d", "write"], "the flush journalled the waiting task before it wrote");
  await new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_MS * 2));
  assert.deepEqual(ran, ["a", "b", "c", "d", "write"], "no task ran twice");
});

test("an exchange journalled through afterResponse ends in flight there, and the last one to end writes", async () => {
  let writes = 0;
  const writer = new WriteBehind(() => writes++);
  const finished = writer.begin();
  writer.afterResponse(finished);
  assert.equal(writes, 0, "the exchange is in flight until its journal task ran");
  writer.settle();
  assert.equal(writes, 1);
});

test(`at most AFTER_RESPONSE_MAX answered exchanges wait to be journalled: one more journals the oldest first`, () => {
  const ran: number[] = [];
  const writer = new WriteBehind(() => {});
  for (let i = 0; i < AFTER_RESPONSE_MAX; i++) writer.afterResponse(() => ran.push(i));
  assert.equal(ran.length, 0, "up to the bound, every task waits for its turn");
  writer.afterResponse(() => ran.push(AFTER_RESPONSE_MAX));
  assert.deepEqual(ran, [0], "the oldest was journalled before the new one was queued");
  writer.settle();
  assert.deepEqual(ran, Array.from({ length: AFTER_RESPONSE_MAX + 1 }, (_, i) => i), "in the order of the responses");
});

test("a task queued after settle() ran the waiting ones still runs at a next turn, without a turn of its own", async () => {
  const ran: string[] = [];
  const writer = new WriteBehind(() => {});
  const scheduled: unknown[] = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => (scheduled.push(fn), real(fn, ms))) as typeof setTimeout;
  try {
    writer.afterResponse(() => ran.push("a"));
    writer.settle();
    writer.afterResponse(() => ran.push("b"));
  } finally {
    globalThis.setTimeout = real;
  }
  assert.equal(scheduled.length, 1, "the turn left over from a is b's");
  assert.deepEqual(ran, ["a"]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(ran, ["a", "b"]);
});
