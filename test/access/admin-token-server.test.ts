import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startServer, type TestServer } from "../helpers/server.ts";
import { capabilitySecret } from "../../src/base/capability-url.ts";

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

async function create(scenario = "baseline"): Promise<{ id: string; mcpUrl: string }> {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { ...bearer(ADMIN), ...json }, body: JSON.stringify({ scenario }) });
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

// Capability URLs on the real server (capability.test.ts covers the refusals in process).

const CAPABILITY = /^http:\/\/127\.0\.0\.1:\d+\/s\/([a-z0-9-]+)\.([A-Za-z0-9_-]{22})\/mcp$/;

async function echoWith(url: string, text: string): Promise<unknown> {
  const client = new Client({ name: "faultline-capability", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return (await client.callTool({ name: "echo", arguments: { text } })).content;
  } finally {
    await client.close();
  }
}

const mcpPost = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { ...json, accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" } } } }),
  });

test("with the admin token, a created session's MCP URL is /s/{id}.{secret}/mcp and the SDK client uses it with no token", async () => {
  const { id, mcpUrl } = await create();
  const match = mcpUrl.match(CAPABILITY);
  assert.ok(match, mcpUrl);
  assert.equal(match[1], id);
  assert.deepEqual(await echoWith(mcpUrl, "by capability"), [{ type: "text", text: "by capability" }]);
});

test("a wrong secret for a real session and any secret for a made-up id get the same 404 JSON-RPC error", async () => {
  const { id, mcpUrl } = await create();
  const secret = mcpUrl.match(CAPABILITY)![2]!;
  const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
  const answers = [];
  for (const path of [`/s/${id}.${forged}/mcp`, `/s/${id}/mcp`, `/s/made-up-${process.pid}.${forged}/mcp`, `/s/made-up-${process.pid}/mcp`]) {
    const res = await mcpPost(`${server.url}${path}`);
    assert.equal(res.status, 404, path);
    answers.push(await res.text());
  }
  assert.equal(new Set(answers).size, 1, answers.join("\n"));
  assert.equal(JSON.parse(answers[0]!).error.code, -32600);
});

test("the viewer sees the same capability URLs as the admin in the list, the session, and the dashboard", async () => {
  const { id, mcpUrl } = await create();
  for (const token of [ADMIN, VIEWER]) {
    const one = (await (await fetch(`${server.url}/api/sessions/${id}`, { headers: bearer(token) })).json()) as { mcpUrl: string };
    assert.equal(one.mcpUrl, mcpUrl);
    const list = (await (await fetch(`${server.url}/api/sessions?limit=1000`, { headers: bearer(token) })).json()) as { sessions: Array<{ id: string; mcpUrl: string }> };
    assert.equal(list.sessions.find((s) => s.id === id)?.mcpUrl, mcpUrl);
    for (const page of ["/", `/sessions/${id}`]) {
      const html = await (await fetch(`${server.url}${page}`, { headers: { ...bearer(token), accept: "text/html" } })).text();
      assert.ok(html.includes(mcpUrl), `${page} shows ${mcpUrl}`);
    }
  }
});

test("with the admin token, plain /mcp is 404 and the default session answers at its capability URL", async () => {
  const plain = await mcpPost(`${server.url}/mcp`);
  assert.equal(plain.status, 404);
  assert.match(((await plain.json()) as { error: { message: string } }).error.message, /printed at start/);
  const url = `${server.url}/s/default.${await capabilitySecret({ FAULTLINE_ADMIN_TOKEN: ADMIN }, "default")}/mcp`;
  assert.deepEqual(await echoWith(url, "default by capability"), [{ type: "text", text: "default by capability" }]);
  const shown = (await (await fetch(`${server.url}/api/sessions/default`, { headers: bearer(ADMIN) })).json()) as { mcpUrl: string };
  assert.equal(shown.mcpUrl, url);
});

test("an auth session's path-suffixed metadata answers only at its capability URL, naming it as the resource and its issuer", async () => {
  const { id, mcpUrl } = await create("auth.unauthorized");
  const path = new URL(mcpUrl).pathname;
  const res = await fetch(`${server.url}/.well-known/oauth-protected-resource${path}`);
  assert.equal(res.status, 200);
  const metadata = (await res.json()) as { resource: string; authorization_servers: string[] };
  assert.equal(metadata.resource, mcpUrl);
  assert.deepEqual(metadata.authorization_servers, [mcpUrl.replace(/\/mcp$/, "/oauth")]);
  // The same session by its plain id, or with a forged secret, has no authorization server to find.
  for (const seg of [id, `${id}.AAAAAAAAAAAAAAAAAAAAAA`]) {
    assert.equal((await fetch(`${server.url}/.well-known/oauth-protected-resource/s/${seg}/mcp`)).status, 404, seg);
    assert.equal((await fetch(`${server.url}/.well-known/oauth-authorization-server/s/${seg}/oauth`)).status, 404, seg);
    const token = await fetch(`${server.url}/s/${seg}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=authorization_code&code=x" });
    assert.equal(token.status, 404, seg);
  }
});

test("a session's journal and its HAR export do not hold its capability URL's secret", async () => {
  const { id, mcpUrl } = await create();
  const secret = mcpUrl.match(CAPABILITY)![2]!;
  await echoWith(mcpUrl, "journalled");
  const journal = await (await fetch(`${server.url}/api/sessions/${id}/journal`, { headers: bearer(ADMIN) })).text();
  assert.ok(journal.includes(`/s/${id}.[redacted]/mcp`), journal.slice(0, 500));
  assert.ok(!journal.includes(secret), "the journal holds no secret");
  const har = await (await fetch(`${server.url}/api/sessions/${id}/journal?format=har`, { headers: bearer(ADMIN) })).text();
  assert.ok(har.includes(".[redacted]/mcp"));
  assert.ok(!har.includes(secret), "the HAR export holds no secret");
});
