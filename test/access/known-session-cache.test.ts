import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// The MCP route remembers for a few seconds which session ids the index listed, so a stream of calls does not ask
// the index before each one. A session deleted meanwhile must still answer 404 at once, not come back.

const server = useServer();

const echo = (mcpUrl: string, id: number) => postModern(mcpUrl, id, "tools/call", { name: "echo", arguments: { text: "hi" } });

test("a session's MCP endpoint answers 404 right after the session is deleted, although it was just called", async () => {
  const session = await createSession(server, "baseline");
  for (const id of [1, 2]) assert.equal((await echo(session.mcpUrl, id)).status, 200);
  assert.equal((await fetch(`${server.url}/api/sessions/${session.id}`, { method: "DELETE" })).status, 204);
  const res = await echo(session.mcpUrl, 3);
  assert.equal(res.status, 404);
  const body = (await res.json()) as { error: { code: number; message: string; data: { id: string } } };
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /Session not found/);
  assert.equal(body.error.data.id, session.id);
  assert.equal((await fetch(`${server.url}/api/sessions/${session.id}`)).status, 404, "the call did not bring the session back");
});

test("an id deleted and created again serves MCP calls for the new session", async () => {
  const first = await createSession(server, "baseline");
  assert.equal((await echo(first.mcpUrl, 1)).status, 200);
  assert.equal((await fetch(`${server.url}/api/sessions/${first.id}`, { method: "DELETE" })).status, 204);
  const again = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: first.id, scenario: "baseline" }) });
  assert.equal(again.status, 201);
  const res = await echo(first.mcpUrl, 2);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /hi/);
});
