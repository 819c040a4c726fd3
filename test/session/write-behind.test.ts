import { test } from "node:test";
import assert from "node:assert/strict";
import { WRITE_BEHIND_MS, WriteBehind } from "../../src/session/write-behind.ts";

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
