import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { issuerOf, tokensFor } from "./flow.ts";

// Discovery as the 2025-11-25 and 2026-07-28 clients run it, over the real server.
const server = useServer();
type Json = Record<string, any>;

const get = async (url: string, status = 200): Promise<Json> => {
  const res = await fetch(url);
  assert.equal(res.status, status, url);
  return (await res.json()) as Json;
};

test("a builtin session's 401 points at the path-suffixed metadata of its MCP URL, whose resource is that URL exactly (RFC 9728 §3.3)", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const res = await postModern(mcpUrl, 1, "tools/list");
  assert.equal(res.status, 401);
  const path = new URL(mcpUrl).pathname;
  assert.match(res.headers.get("www-authenticate")!, new RegExp(`resource_metadata="${server.url}/\\.well-known/oauth-protected-resource${path}"`));
  const prm = await get(`${server.url}/.well-known/oauth-protected-resource${path}`);
  assert.equal(prm.resource, mcpUrl);
  assert.deepEqual(prm.authorization_servers, [issuerOf(mcpUrl)]);
});

test("the issuer's metadata is served by RFC 8414 path insertion and both OpenID discovery forms, with the same issuer", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", { scope: "orders:write" });
  const issuer = issuerOf(mcpUrl);
  const path = new URL(issuer).pathname;
  const forms = [
    `${server.url}/.well-known/oauth-authorization-server${path}`,
    `${server.url}/.well-known/openid-configuration${path}`,
    `${issuer}/.well-known/openid-configuration`,
  ];
  for (const url of forms) {
    const doc = await get(url);
    assert.equal(doc.issuer, issuer, url);
    assert.deepEqual(doc.code_challenge_methods_supported, ["S256"]);
    assert.equal(doc.authorization_response_iss_parameter_supported, true);
    assert.equal(doc.client_id_metadata_document_supported, true);
    assert.equal(doc.registration_endpoint, `${issuer}/register`);
    assert.deepEqual(doc.grant_types_supported, ["authorization_code", "refresh_token"]);
    assert.ok(doc.scopes_supported.includes("orders:write"), "the scenario's own scope is granted too");
  }
});

test("sessions without a builtin authorization server serve no metadata: 404 JSON, for baseline and for authorizationServer none", async () => {
  for (const [scenario, params] of [["baseline", {}], ["auth.unauthorized", { authorizationServer: "none" }]] as const) {
    const { mcpUrl } = await createSession(server, scenario, params);
    const path = new URL(mcpUrl).pathname;
    assert.equal((await get(`${server.url}/.well-known/oauth-protected-resource${path}`, 404)).error.code, "no_authorization_server");
    assert.equal((await get(`${server.url}/.well-known/oauth-authorization-server${new URL(issuerOf(mcpUrl)).pathname}`, 404)).error.code, "no_authorization_server");
  }
  assert.equal((await get(`${server.url}/.well-known/oauth-protected-resource/s/no-such-session/mcp`, 404)).error.code, "not_found");
  assert.equal((await get(`${server.url}/.well-known/oauth-protected-resource/mcp`, 404)).error.code, "no_authorization_server", "the default session runs baseline");
});

test("the OAuth endpoints answer CORS for allowed origins only (browser clients run the flow from the page)", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const preflight = (origin: string) =>
    fetch(`${issuerOf(mcpUrl)}/token`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
  const allowed = await preflight("http://localhost:6274");
  assert.equal(allowed.status, 204);
  assert.equal(allowed.headers.get("access-control-allow-origin"), "http://localhost:6274");
  assert.match(allowed.headers.get("access-control-allow-headers")!, /content-type/);
  const foreign = await preflight("https://evil.example");
  assert.equal(foreign.headers.get("access-control-allow-origin"), null);
  await foreign.arrayBuffer();
  const metadata = await fetch(`${server.url}/.well-known/oauth-protected-resource${new URL(mcpUrl).pathname}`, { headers: { origin: "http://localhost:6274" } });
  assert.equal(metadata.headers.get("access-control-allow-origin"), "http://localhost:6274");
  await metadata.arrayBuffer();
});

test("the default session's resource is {origin}/mcp and its issuer {origin}/oauth; a token for it is refused at /s/default/mcp", async () => {
  await (await postModern(`${server.url}/mcp`, 0, "tools/list")).arrayBuffer(); // the default session comes into being on first use
  const put = await fetch(`${server.url}/api/sessions/default/scenario`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "auth.unauthorized" }) });
  assert.equal(put.status, 200, await put.text());
  const prm = await get(`${server.url}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(prm.resource, `${server.url}/mcp`);
  assert.deepEqual(prm.authorization_servers, [`${server.url}/oauth`]);
  assert.equal((await get(`${server.url}/.well-known/oauth-authorization-server/oauth`)).issuer, `${server.url}/oauth`);
  const t = await tokensFor(`${server.url}/mcp`);
  assert.equal((await postModern(`${server.url}/mcp`, 1, "tools/list", {}, { headers: { authorization: `Bearer ${t.access_token}` } })).status, 200);
  // Same session, another URL: another resource (RFC 8707), so the token's audience does not match.
  assert.equal((await postModern(`${server.url}/s/default/mcp`, 2, "tools/list", {}, { headers: { authorization: `Bearer ${t.access_token}` } })).status, 401);
});
