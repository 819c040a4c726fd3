import { test } from "node:test";
import assert from "node:assert/strict";
import { createTestHarness } from "wrangler";

test("the worker answers /health in process", async () => {
  const h = createTestHarness({ workers: [{ configPath: "./wrangler.toml" }] });
  await h.listen();
  try {
    const res = await h.fetch("/health");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
  } finally {
    await h.close();
  }
});
