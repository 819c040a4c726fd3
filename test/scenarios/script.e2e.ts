import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../helpers/server.ts";
import { call, modern, type Json } from "../helpers/seen.ts";

// What a client sees under a script, end to end. Which request each rule picks is in decide/script.ts; the params
// the API refuses are in script-params.test.ts.
const server = useServer();

const echo = (mcpUrl: string, id: number) => modern(mcpUrl, id, "tools/call", call("echo", { text: `call ${id}` }));

const nth = (n: number, fault: Json) => ({ match: { method: "tools/call", nth: n }, fault });

test("script plays 503, 503, isError, then success, as its catalogue example describes", async () => {
  const { mcpUrl } = await createSession(server, "script", {
    rules: [nth(1, { kind: "http_status", status: 503, retryAfter: 1 }), nth(2, { kind: "http_status", status: 503 }), nth(3, { kind: "tool_error", text: "still warming up" })],
  });
  const first = await echo(mcpUrl, 1);
  assert.equal(first.status, 503);
  assert.equal(first.verdict.outcome, "HTTP_ERROR");
  assert.equal(first.verdict.retry.decision, "conditional");
  assert.equal(first.verdict.retry.afterMs, 1000);
  assert.equal((await echo(mcpUrl, 2)).status, 503);
  const third = await echo(mcpUrl, 3);
  assert.equal(third.json?.result.isError, true);
  assert.equal(third.json?.result.content[0].text, "still warming up");
  assert.equal(third.verdict.outcome, "TOOL_ERROR");
  const fourth = await echo(mcpUrl, 4);
  assert.equal(fourth.json?.result.content[0].text, "call 4");
  assert.equal(fourth.verdict.outcome, "TOOL_SUCCESS");
});

test("script can fault a legacy initialize, and the next initialize succeeds", async () => {
  const { mcpUrl } = await createSession(server, "script", { rules: [{ match: { method: "initialize", nth: 1 }, fault: { kind: "http_status", status: 503 } }] });
  await assert.rejects(legacySession(mcpUrl), /status 503/);
  const session = await legacySession(mcpUrl);
  assert.ok(session.sessionId);
});

