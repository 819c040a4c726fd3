import { test } from "node:test";
import assert from "node:assert/strict";
import { app, jsonBody } from "../helpers/app.ts";
import { capabilitySecret, mcpUrl } from "../../src/base/capability-url.ts";
import { parseMcpPath } from "../../src/base/mcp-path.ts";
import { redactCapability } from "../../src/journal/redact.ts";

// Capability URLs, in process: every refusal happens before a Durable Object or the index is touched (the helper's
// bindings throw when touched, so a refusal that looked anything up would be a 500 here). capability-server.test.ts
// covers the admitted requests on the real server.

const ADMIN = "admin-token-0123456789";
const env = { FAULTLINE_ADMIN_TOKEN: ADMIN };
const untouchable = new Proxy({}, { get: () => { throw new Error("a Durable Object namespace was touched"); } });
const bindings = { SESSIONS: untouchable, INDEX: untouchable };

const post = (path: string, vars: Record<string, string>) =>
  app.request(`http://127.0.0.1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  }, { ...bindings, ...vars });

test("an MCP path is taken apart into the session id and the secret after the first dot", () => {
  assert.deepEqual(parseMcpPath("/mcp"), { id: "default", secret: undefined });
  assert.deepEqual(parseMcpPath("/s/abc/mcp"), { id: "abc", secret: undefined });
  assert.deepEqual(parseMcpPath("/s/abc.Zx_-9/mcp"), { id: "abc", secret: "Zx_-9" });
  assert.deepEqual(parseMcpPath("/s/abc%2Exyz/mcp"), { id: "abc", secret: "xyz" });
  assert.equal(parseMcpPath("/s/abc/mcp/extra"), undefined);
  assert.equal(parseMcpPath("/api/sessions/abc"), undefined);
});

test("a session's secret is 22 base64url characters (132 bits), differs by id and by admin token, and FAULTLINE_URL_KEY replaces the token as key", async () => {
  const a = await capabilitySecret(env, "session-a");
  assert.match(a, /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(await capabilitySecret(env, "session-b"), a);
  assert.notEqual(await capabilitySecret({ FAULTLINE_ADMIN_TOKEN: `${ADMIN}x` }, "session-a"), a, "rotating the token rotates the URLs");
  const keyed = await capabilitySecret({ FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_URL_KEY: "url-key" }, "session-a");
  assert.notEqual(keyed, a);
  assert.equal(await capabilitySecret({ FAULTLINE_ADMIN_TOKEN: "rotated", FAULTLINE_URL_KEY: "url-key" }, "session-a"), keyed, "with a URL key, the token can rotate alone");
  assert.ok(!a.includes(ADMIN) && !ADMIN.includes(a));
});

test("with the admin token set, mcpUrl is /s/{id}.{secret}/mcp; without it, /s/{id}/mcp as before", async () => {
  assert.equal(await mcpUrl(env, "http://h:1", "abc"), `http://h:1/s/abc.${await capabilitySecret(env, "abc")}/mcp`);
  assert.equal(await mcpUrl({}, "http://h:1", "abc"), "http://h:1/s/abc/mcp");
  assert.equal(await mcpUrl(undefined, "http://h:1", "abc"), "http://h:1/s/abc/mcp");
});

test("with the admin token set, a missing, wrong or other session's secret gets 404 with one JSON-RPC error, and nothing is looked up", async () => {
  const right = await capabilitySecret(env, "abc");
  const wrong = `${right.slice(0, -1)}${right.endsWith("A") ? "B" : "A"}`;
  const paths = ["/s/abc/mcp", `/s/abc.${wrong}/mcp`, `/s/abc.${right}x/mcp`, `/s/abc.${await capabilitySecret(env, "other")}/mcp`, "/s/abc./mcp", `/s/made-up.${wrong}/mcp`];
  const messages = new Set<string>();
  for (const path of paths) {
    const body = await jsonBody(await post(path, env), 404);
    assert.equal(body.jsonrpc, "2.0", path);
    assert.equal(body.error.code, -32600, path);
    assert.equal(body.error.data, undefined, `${path}: no id echoed back`);
    messages.add(body.error.message);
  }
  assert.equal(messages.size, 1, "the same answer whatever the id and the secret");
  assert.match([...messages][0]!, /\/s\/\{id\}\.\{secret\}\/mcp/);
});

test("with the admin token set, plain /mcp answers 404 saying to use the capability URL printed at start", async () => {
  const body = await jsonBody(await post("/mcp", env), 404);
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /FAULTLINE_ADMIN_TOKEN/);
  assert.match(body.error.message, /\/s\/default\.\{secret\}\/mcp/);
  assert.match(body.error.message, /printed at start/);
});

test("without the admin token, an MCP URL that carries a secret gets 404 saying this server's URLs carry none", async () => {
  const body = await jsonBody(await post(`/s/abc.${await capabilitySecret(env, "abc")}/mcp`, {}), 404);
  assert.match(body.error.message, /no FAULTLINE_ADMIN_TOKEN/);
  assert.match(body.error.message, /\/s\/\{id\}\/mcp/);
});

test("a refused capability URL still carries the CORS headers for an allowed origin, so a browser client sees the 404", async () => {
  const res = await app.request("http://127.0.0.1/s/abc/mcp", { method: "POST", headers: { origin: "http://localhost:5173", "content-type": "application/json" }, body: "{}" }, { ...bindings, ...env });
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:5173");
});

test("the journal's copy of an MCP path has the secret replaced by the redaction marker; other paths are kept", () => {
  assert.equal(redactCapability("/s/abc.Zx_-9Zx_-9Zx_-9Zx_-9Zx/mcp"), "/s/abc.[redacted]/mcp");
  assert.equal(redactCapability("/s/abc/mcp"), "/s/abc/mcp");
  assert.equal(redactCapability("/mcp"), "/mcp");
  assert.equal(redactCapability("/api/sessions/abc"), "/api/sessions/abc");
});
