import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../helpers/server.ts";
import { legacy, modern, type Json } from "../helpers/seen.ts";

// POST /api/sessions/{id}/expire-mcp-sessions: every MCP session of a Faultline session ends at once, as on a
// server restart, streams in flight included, and the next request with an old id gets the expired answer.
const server = useServer();

const expireAll = (id: string) => fetch(`${server.url}/api/sessions/${id}/expire-mcp-sessions`, { method: "POST" });
const echo = (id: number) => ({ id, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } });

test("expiring all MCP sessions ends every one of them, and an old id then gets 404 while a new initialize works", async () => {
  const { id, mcpUrl } = await createSession(server, "baseline");
  const [a, b] = [await legacySession(mcpUrl), await legacySession(mcpUrl)];
  assert.equal((await legacy(a, echo(1))).status, 200);
  const res = await expireAll(id);
  const body = (await res.json()) as Json;
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(body.ended, { mcpSessions: 2, streams: 0 });
  assert.equal(body.mcpSessions, 0, "the view counts no open MCP session");
  assert.equal(body.scenario, "baseline", "the scenario stays");
  for (const old of [a, b]) {
    const gone = await legacy(old, echo(2));
    assert.equal(gone.status, 404);
    assert.equal(gone.verdict.retry.decision, "reinitialize");
  }
  const fresh = await legacySession(mcpUrl);
  assert.equal((await legacy(fresh, echo(3))).status, 200);
});

// The timeout is no timing assertion: without the rule the stream stays open for ten minutes, and this fails instead.
test("an open SSE stream of an MCP session ends when every MCP session is expired, saying why", { timeout: 60_000 }, async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.never_complete", { ms: 600_000, keepAliveMs: 50 });
  const session = await legacySession(mcpUrl);
  const res = await session.post(echo(1));
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  const expired = (await (await expireAll(id)).json()) as Json;
  assert.deepEqual(expired.ended, { mcpSessions: 1, streams: 1 });
  // The stream would otherwise stay open for ten minutes: reading it to its end is the proof that it ended.
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
  assert.match(text, /: faultline: stream ended: every MCP session of this server ended \(as on a restart\)/);
  // (tools/call would be held open by the scenario again, with the 404 as its answer.)
  assert.equal((await legacy(session, { id: 2, method: "tools/list" })).status, 404);
});

test("under session.expire_after, an id ended by expiring all sessions gets the variant's answer at once", async () => {
  const { id, mcpUrl } = await createSession(server, "session.expire_after", { requests: 100, variant: "bad_request_no_valid_session" });
  const session = await legacySession(mcpUrl);
  assert.equal((await legacy(session, echo(1))).status, 200, "still within its 100 requests");
  assert.equal((await expireAll(id)).status, 200);
  const gone = await legacy(session, echo(2));
  assert.equal(gone.status, 400);
  assert.deepEqual(gone.json, { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null });
  assert.equal(gone.verdict.retry.decision, "reinitialize");
});

test("2026-07-28 requests are unaffected by expiring all MCP sessions", async () => {
  const { id, mcpUrl } = await createSession(server, "session.expire_after", { requests: 1, variant: "gone" });
  assert.equal((await expireAll(id)).status, 200);
  for (const n of [1, 2]) assert.equal((await modern(mcpUrl, n, "tools/list")).status, 200);
});

test("expiring the MCP sessions of a session that does not exist is a 404 and adds no audit line", async () => {
  const before = ((await (await fetch(`${server.url}/api/audit`)).json()) as Json).lines.length;
  const res = await expireAll("no-such-session");
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as Json).error.code, "session_not_found");
  assert.equal(((await (await fetch(`${server.url}/api/audit`)).json()) as Json).lines.length, before);
});

test("expiring all MCP sessions is audited like a reset", async () => {
  const { id } = await createSession(server, "baseline");
  assert.equal((await expireAll(id)).status, 200);
  const lines = ((await (await fetch(`${server.url}/api/audit`)).json()) as Json).lines as Json[];
  assert.deepEqual(
    { who: lines[0]!.who, action: lines[0]!.action, session: lines[0]!.session },
    { who: "local", action: "expire-mcp-sessions", session: id },
  );
});

test("in proxy mode expiring the MCP sessions is refused with 409 unsupported_in_proxy_mode: the upstream owns them", async () => {
  const created = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "baseline", upstream: "http://127.0.0.1:9/mcp" }),
  });
  const { id } = (await created.json()) as Json;
  assert.equal(created.status, 201);
  const res = await expireAll(id);
  const body = (await res.json()) as Json;
  assert.equal(res.status, 409);
  assert.equal(body.error.code, "unsupported_in_proxy_mode");
});
