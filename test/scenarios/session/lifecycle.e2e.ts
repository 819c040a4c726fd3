import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../../helpers/server.ts";
import { modern, legacy, type Json } from "../../helpers/seen.ts";

// session.expire_after and session.missing_id: legacy MCP session faults as a client meets them.
const server = useServer();

test("session.expire_after answers the request after `requests` with 404 and keeps the session ended", async () => {
  const { mcpUrl } = await createSession(server, "session.expire_after", { requests: 2 });
  const session = await legacySession(mcpUrl); // notifications/initialized is request 1
  assert.equal((await legacy(session, { id: 1, method: "tools/list" })).status, 200);
  const expired = await legacy(session, { id: 2, method: "tools/list" });
  assert.equal(expired.status, 404);
  assert.equal(expired.json?.id, 2);
  assert.equal(expired.verdict.outcome, "HTTP_ERROR");
  assert.equal(expired.verdict.retry.decision, "reinitialize");
  assert.equal((await legacy(session, { id: 3, method: "ping" })).status, 404);
  const fresh = await legacySession(mcpUrl);
  assert.notEqual(fresh.sessionId, session.sessionId);
  assert.equal((await legacy(fresh, { id: 1, method: "tools/list" })).status, 200);
});

test("session.expire_after leaves 2026-07-28 requests alone", async () => {
  const { mcpUrl } = await createSession(server, "session.expire_after", { requests: 1 });
  for (const id of [1, 2, 3]) assert.equal((await modern(mcpUrl, id, "tools/list")).status, 200);
});

test("session.missing_id answers the nth request with 400 missing Mcp-Session-Id although the client sent it", async () => {
  const { mcpUrl } = await createSession(server, "session.missing_id", { nth: 2 });
  const session = await legacySession(mcpUrl);
  assert.equal((await legacy(session, { id: 1, method: "tools/list" })).status, 200);
  const refused = await legacy(session, { id: 2, method: "tools/list" });
  assert.equal(refused.status, 400);
  assert.equal(refused.json?.error.code, -32600);
  assert.match(refused.json?.error.message, /Mcp-Session-Id header is required/);
  assert.equal(refused.verdict.outcome, "HTTP_ERROR");
  assert.equal(refused.verdict.code, -32600);
  assert.equal((await legacy(session, { id: 3, method: "tools/list" })).status, 200, "the session is still valid");
});

test("session.missing_id with persistent=true refuses every request from the nth on", async () => {
  const { mcpUrl } = await createSession(server, "session.missing_id", { nth: 1, persistent: true });
  const session = await legacySession(mcpUrl);
  for (const id of [1, 2]) assert.equal((await legacy(session, { id, method: "tools/list" })).status, 400);
});

test("session.missing_id gives the same 400 body the server sends when the header really is missing", async () => {
  const { mcpUrl } = await createSession(server, "session.missing_id");
  const session = await legacySession(mcpUrl);
  const injected = await legacy(session, { id: 1, method: "tools/list" });
  const real = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const realBody = (await real.json()) as Json;
  assert.equal(real.status, injected.status);
  assert.equal(realBody.error.code, injected.json?.error.code);
  assert.match(realBody.error.message, /^Bad Request: Mcp-Session-Id header is required/);
});
