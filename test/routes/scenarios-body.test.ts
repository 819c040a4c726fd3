// GET /api/scenarios serves one body built once and kept as bytes: every request must still get all of it, as JSON.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";
import { catalogue } from "../../scenarios/index.ts";

const server = useServer();

test("GET /api/scenarios on workerd sends the whole catalogue as UTF-8 JSON on every request, not only the first", async () => {
  const expected = JSON.stringify({ scenarios: catalogue() });
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.url}/api/scenarios`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const text = await res.text();
    assert.equal(text.length, expected.length, `request ${i + 1}: body length`);
    assert.equal(text, expected, `request ${i + 1}: body`);
  }
});
