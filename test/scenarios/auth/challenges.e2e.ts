import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../../helpers/server.ts";
import { modern, call, legacy, initialize, toolText, challenge, type Json } from "../../helpers/seen.ts";

// auth.unauthorized, auth.insufficient_scope and auth.token_expiry: the challenges a client sees, in both eras, with
// authorizationServer "none" (any token passes). The builtin authorization server is tested under test/oauth/.
const server = useServer();
const NONE = { authorizationServer: "none" };
/** RFC 9728 §3.1: the metadata URL of an MCP URL, the well-known name inserted before its path. */
const metadataUrl = (mcpUrl: string) => `${server.url}/.well-known/oauth-protected-resource${new URL(mcpUrl).pathname}`;

test("auth.unauthorized answers a request without a bearer token with 401 and a resource_metadata challenge", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { scope: "faultline:read", ...NONE });
  const seen = await modern(mcpUrl, 1, "tools/list");
  assert.equal(seen.status, 401);
  const params = challenge(seen);
  assert.equal(params.resource_metadata, metadataUrl(mcpUrl));
  assert.equal(params.scope, "faultline:read");
  assert.equal(params.error, undefined, "RFC 6750 §3.1: no error code when the request carried no credentials");
  assert.equal(seen.verdict.outcome, "HTTP_ERROR");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("auth.unauthorized lets a request with any bearer token through", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", NONE);
  const seen = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "hi" }), { headers: { authorization: "Bearer anything-goes" } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(toolText(seen), "hi");
});

test("auth.unauthorized refuses a legacy initialize without a token and accepts one with a token", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", NONE);
  const refused = await initialize(mcpUrl);
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("mcp-session-id"), null);
  await refused.arrayBuffer();
  const accepted = await initialize(mcpUrl, { authorization: "bearer t0k3n" });
  assert.equal(accepted.status, 200);
  assert.ok(accepted.headers.get("mcp-session-id"));
  await accepted.arrayBuffer();
});

test("auth.unauthorized with when=always refuses a bearer token with error=invalid_token", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { when: "always", ...NONE });
  const seen = await modern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: "Bearer t" } });
  assert.equal(seen.status, 401);
  assert.equal(challenge(seen).error, "invalid_token");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("with authorizationServer none, the resource_metadata URL answers 404 JSON: no authorization server is invented", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", NONE);
  const url = challenge(await modern(mcpUrl, 1, "tools/list")).resource_metadata as string;
  const res = await fetch(url);
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as Json).error.code, "no_authorization_server");
});

test("auth.insufficient_scope answers a destructive tool call with 403 and an insufficient_scope challenge", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope", NONE);
  const seen = await modern(mcpUrl, 1, "tools/call", call("place_order", { item: "tea", quantity: 1 }));
  assert.equal(seen.status, 403);
  const params = challenge(seen);
  assert.equal(params.error, "insufficient_scope");
  assert.equal(params.scope, "faultline:write");
  assert.equal(params.resource_metadata, metadataUrl(mcpUrl));
  assert.equal(seen.verdict.outcome, "HTTP_ERROR");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("auth.insufficient_scope lets read-only tools through", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope", NONE);
  const seen = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "ok" }));
  assert.equal(seen.status, 200);
  assert.equal(toolText(seen), "ok");
});

test("auth.insufficient_scope with denials=1 lets the second call through, as after a step-up", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope", { tools: ["echo"], scope: "echo:use", denials: 1, ...NONE });
  const first = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "a" }));
  assert.equal(first.status, 403);
  assert.equal(challenge(first).scope, "echo:use");
  const second = await modern(mcpUrl, 2, "tools/call", call("echo", { text: "b" }));
  assert.equal(second.status, 200);
});

test("auth.insufficient_scope refuses a legacy tools/call with 403 too", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope", NONE);
  const session = await legacySession(mcpUrl);
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("place_order", { item: "tea", quantity: 1 }) });
  assert.equal(seen.status, 403);
  assert.equal(challenge(seen).error, "insufficient_scope");
});

test("auth.token_expiry answers the request after `uses` with 401 invalid_token, and a new token starts fresh", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2, ...NONE });
  const withToken = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  for (const id of [1, 2]) assert.equal((await modern(mcpUrl, id, "tools/list", {}, withToken("first"))).status, 200);
  const expired = await modern(mcpUrl, 3, "tools/list", {}, withToken("first"));
  assert.equal(expired.status, 401);
  assert.equal(challenge(expired).error, "invalid_token");
  assert.equal(expired.verdict.retry.decision, "reauthorize");
  assert.equal((await modern(mcpUrl, 4, "tools/list", {}, withToken("first"))).status, 401, "an expired token stays expired");
  assert.equal((await modern(mcpUrl, 5, "tools/list", {}, withToken("second"))).status, 200);
});

test("auth.token_expiry answers a request without a token with 401 and no error code", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", NONE);
  const seen = await modern(mcpUrl, 1, "tools/list");
  assert.equal(seen.status, 401);
  assert.equal(challenge(seen).error, undefined);
});

test("auth.token_expiry counts the legacy handshake against the token", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2, ...NONE });
  const auth = { authorization: "Bearer legacy" };
  const init = await initialize(mcpUrl, auth);
  const sessionId = init.headers.get("mcp-session-id") as string;
  await init.arrayBuffer();
  const post = (body: Json) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", ...auth },
      body: JSON.stringify({ jsonrpc: "2.0", ...body }),
    });
  assert.equal((await post({ method: "notifications/initialized" })).status, 202);
  const expired = await post({ id: 1, method: "tools/list" });
  assert.equal(expired.status, 401);
  assert.match(expired.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
});
