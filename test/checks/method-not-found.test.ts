import { test } from "node:test";
import assert from "node:assert/strict";
import { checksOf } from "../../src/checks/index.ts";
import { MAX_REPEATS } from "../../src/checks/method-not-found.ts";
import { entry } from "./entries.ts";

const NOT_FOUND = { code: -32601, message: "Method not found" };
const listed = (seq: number, at: number, refused = true) =>
  entry({ seq, at, method: "resources/list", ...(refused ? { error: NOT_FOUND } : { result: { resources: [] } }) });
const check = (entries: ReturnType<typeof entry>[]) => checksOf(entries).find((c) => c.id === "method-not-found-not-repeated");

test("a client that does not call a method again after its -32601 passes", () => {
  const found = check([listed(1, 0), entry({ seq: 2, at: 10, method: "tools/list", result: { tools: [] } })]);
  assert.equal(found?.status, "pass");
  assert.deepEqual(found?.evidence, [1]);
});

test("a client that keeps calling a method the server keeps refusing -32601 fails, with every refusal as evidence", () => {
  const calls = Array.from({ length: MAX_REPEATS + 2 }, (_, i) => listed(i + 1, i * 10));
  const found = check(calls);
  assert.equal(found?.status, "fail");
  assert.deepEqual(found?.evidence, calls.map((c) => c.seq));
  assert.match(found!.message, new RegExp(`called it ${MAX_REPEATS + 1} more times`));
});

test("one more call after the -32601 is allowed, and a later answer means the method was there after all", () => {
  assert.equal(check([listed(1, 0), listed(2, 10)])?.status, "pass");
  assert.equal(check([listed(1, 0), listed(2, 10), listed(3, 20), listed(4, 30, false)])?.status, "pass");
});

test("no -32601, no method-not-found check", () => {
  assert.equal(check([listed(1, 0, false), listed(2, 10, false)]), undefined);
});
