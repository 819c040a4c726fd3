import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

// The admin and viewer tokens on the real server: what they admit (admin-token.test.ts covers the refusals).

const ADMIN = "admin-token-0123456789";
const VIEWER = "viewer-token-0123456789";
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: VIEWER });
});
after(() => server?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { "content-type": "application/json" };

async function create(): Promise<{ id: string; mcpUrl: string }> {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { ...bearer(ADMIN), ...json }, body: JSON.stringify({ scenario: "baseline" }) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: string; mcpUrl: string };
}

async function loginCookie(token: string): Promise<string> {
  const res = await fetch(`${server.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }).toString(),
  });
  assert.equal(res.status, 303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

test("the admin token creates, lists, reads and deletes; without it the list is 401", async () => {
  const { id } = await create();
  const list = await fetch(`${server.url}/api/sessions`, { headers: bearer(ADMIN) });
  assert.equal(list.status, 200);
  assert.ok(((await list.json()) as { sessions: Array<{ id: string }> }).sessions.some((s) => s.id === id));
  assert.equal((await fetch(`${server.url}/api/sessions`)).status, 401);
  assert.equal((await fetch(`${server.url}/api/sessions/${id}`, { method: "DELETE", headers: bearer(ADMIN) })).status, 204);
});

test("the MCP endpoint needs no token: a session's MCP URL is what its client is given", async () => {
  const { mcpUrl } = await create();
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { ...json, accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } }),
  });
  assert.equal(res.status, 200, await res.text());
});

test("the viewer token reads the list, a session, its journal and checks, and gets 403 on reset", async () => {
  const { id } = await create();
  for (const path of ["/api/sessions", `/api/sessions/${id}`, `/api/sessions/${id}/journal`, `/api/sessions/${id}/checks`]) {
    const res = await fetch(`${server.url}${path}`, { headers: bearer(VIEWER) });
    assert.equal(res.status, 200, `${path}: ${await res.text()}`);
  }
  const reset = await fetch(`${server.url}/api/sessions/${id}/reset`, { method: "POST", headers: bearer(VIEWER) });
  assert.equal(reset.status, 403);
});

test("the login cookie reads the dashboard and the live stream, and resets a session from this server's own Origin", async () => {
  const { id } = await create();
  const cookie = await loginCookie(ADMIN);
  const page = await fetch(`${server.url}/sessions/${id}`, { headers: { cookie, accept: "text/html" } });
  assert.equal(page.status, 200);
  await page.text();
  const controller = new AbortController();
  const stream = await fetch(`${server.url}/api/sessions/${id}/journal/stream`, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get("content-type") ?? "", /text\/event-stream/);
  controller.abort();
  await stream.body?.cancel().catch(() => undefined);
  const reset = await fetch(`${server.url}/api/sessions/${id}/reset`, { method: "POST", headers: { cookie, origin: server.url } });
  assert.equal(reset.status, 200, await reset.text());
  const crossSite = await fetch(`${server.url}/api/sessions/${id}/reset`, { method: "POST", headers: { cookie } });
  assert.equal(crossSite.status, 403);
});
