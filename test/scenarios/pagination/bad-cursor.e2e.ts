import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../../helpers/server.ts";
import { modern, legacy, toolNames } from "../../helpers/seen.ts";

// pagination.bad_cursor: pages, and the cursors it refuses.
const server = useServer();

test("pagination.bad_cursor pages tools/list with nextCursor until the last page", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 2 });
  const first = await modern(mcpUrl, 1, "tools/list");
  assert.deepEqual(toolNames(first), ["echo", "place_order"]);
  assert.equal(typeof first.json?.result.nextCursor, "string");
  const second = await modern(mcpUrl, 2, "tools/list", { cursor: first.json?.result.nextCursor });
  assert.deepEqual(toolNames(second), ["run_configured_test_scenario"]);
  assert.equal(second.json?.result.nextCursor, undefined);
  assert.equal(second.json?.result.cacheScope, "public");
});

test("pagination.bad_cursor answers a tampered cursor with -32602", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 1 });
  const cursor = String((await modern(mcpUrl, 1, "tools/list")).json?.result.nextCursor);
  const [payload, sum] = cursor.split(".");
  const forged = Buffer.from(JSON.stringify({ o: 2 })).toString("base64url");
  assert.notEqual(forged, payload);
  const seen = await modern(mcpUrl, 2, "tools/list", { cursor: `${forged}.${sum}` });
  assert.equal(seen.status, 200);
  assert.equal(seen.json?.error.code, -32602);
  assert.match(seen.json?.error.message, /tampered/);
  assert.equal(seen.verdict.outcome, "JSONRPC_ERROR");
  assert.equal(seen.verdict.code, -32602);
});

test("pagination.bad_cursor answers a cursor it never issued, or one that is not a string, with -32602", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor");
  for (const [id, cursor] of [[1, "not-a-cursor"], [2, ""], [3, 42]] as const) {
    const seen = await modern(mcpUrl, id, "tools/list", { cursor });
    assert.equal(seen.json?.error.code, -32602, `cursor ${JSON.stringify(cursor)}`);
  }
});

test("pagination.bad_cursor with expiredCursor=1 issues a first nextCursor that fails as expired", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 1, expiredCursor: 1 });
  const first = await modern(mcpUrl, 1, "tools/list");
  const seen = await modern(mcpUrl, 2, "tools/list", { cursor: first.json?.result.nextCursor });
  assert.equal(seen.json?.error.code, -32602);
  assert.match(seen.json?.error.message, /expired/);
});

test("pagination.bad_cursor answers a bad cursor with -32602 in the legacy era too", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor");
  const session = await legacySession(mcpUrl);
  const first = await legacy(session, { id: 1, method: "tools/list" });
  assert.equal(first.json?.result.ttlMs, undefined);
  const seen = await legacy(session, { id: 2, method: "tools/list", params: { cursor: `${first.json?.result.nextCursor}x` } });
  assert.equal(seen.json?.error.code, -32602);
  assert.equal(seen.verdict.code, -32602);
});
