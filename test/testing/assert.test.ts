import { test } from "node:test";
import assert from "node:assert/strict";
import { assertChecksPass } from "../../src/testing/index.ts";

const pass = { id: "a-check", status: "pass" as const, message: "fine", evidence: [1] };
const failed = { id: "b-check", status: "fail" as const, message: "No retry observed.", evidence: [2, 5] };
const info = { id: "c-check", status: "info" as const, message: "nothing to judge", evidence: [] };

test("assertChecksPass passes when checks judged the client and none failed", async () => {
  await assertChecksPass([pass, info]);
  await assertChecksPass({ checks: async () => [pass] }, "a-check");
});

test("assertChecksPass fails with each failed check's id, message and evidence", async () => {
  await assert.rejects(assertChecksPass([pass, failed]), (error: Error) => {
    assert.ok(error instanceof assert.AssertionError);
    assert.equal(error.message, "Faultline checks failed:\n  b-check (fail): No retry observed. [evidence: #2, #5]");
    return true;
  });
});

test("assertChecksPass fails when no check judged the client: a client that never connected proves nothing", async () => {
  await assert.rejects(assertChecksPass([]), /no check judged the client/);
});

test("assertChecksPass fails for a named check that is missing or did not pass", async () => {
  await assert.rejects(assertChecksPass([pass, info], "z-check"), /z-check: no such check in this session \(it has: a-check, c-check\)/);
  await assert.rejects(assertChecksPass([pass, info], "c-check"), /c-check \(info\): nothing to judge \(expected pass\)/);
});
