import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../helpers/server.ts";
import { sseMessages } from "../helpers/sse.ts";

// 2025-11-25 and 2025-06-18 over raw HTTP: initialize, Mcp-Session-Id, Origin, and a real server-to-client elicitation.

/** A baseline session shared by the tests that only read. */
let baseline: string;
const server = useServer(async (started) => {
  baseline = (await createSession(started, "baseline")).mcpUrl;
});

type Json = Record<string, any>;
const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18"] as const;

function post(mcpUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

function initialize(mcpUrl: string, protocolVersion: string, headers: Record<string, string> = {}, capabilities: Json = {}) {
  return post(
    mcpUrl,
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities, clientInfo: { name: "legacy-test", version: "0.0.0" } } },
    headers,
  );
}

async function reply(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text) as Json;
}

// ---- initialize and version negotiation ----

for (const version of LEGACY_VERSIONS) {
  test(`initialize at ${version} is answered with ${version}, the server's capabilities and serverInfo`, async () => {
    const body = await reply(await initialize(baseline, version), 200);
    assert.equal(body.id, 0);
    assert.equal(body.result.protocolVersion, version);
    assert.equal(typeof body.result.capabilities.tools, "object");
    assert.equal(body.result.serverInfo.name, "faultline");
    assert.equal(body.result.resultType, undefined, "legacy results carry no resultType");
  });
}

test("initialize with an unknown protocol version is answered with the server's latest legacy version", async () => {
  const body = await reply(await initialize(baseline, "1999-01-01"), 200);
  assert.equal(body.result.protocolVersion, "2025-11-25");
});

test("initialize at 2026-07-28 is answered with the latest legacy version, since 2026-07-28 has no initialize", async () => {
  const body = await reply(await initialize(baseline, "2026-07-28"), 200);
  assert.equal(body.result.protocolVersion, "2025-11-25");
});

test("initialize mints an Mcp-Session-Id of visible ASCII, different each time", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await initialize(baseline, "2025-11-25");
    await res.arrayBuffer();
    const id = res.headers.get("mcp-session-id");
    assert.ok(id, "Mcp-Session-Id is set");
    assert.match(id, /^[\x21-\x7e]{16,}$/);
    ids.push(id);
  }
  assert.notEqual(ids[0], ids[1]);
});

// ---- the session id ----

test("a request without Mcp-Session-Id after initialize gives 400", async () => {
  const res = await post(baseline, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
  const body = await reply(res, 400);
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /Mcp-Session-Id/);
});

test("a request with an unknown Mcp-Session-Id gives 404", async () => {
  const res = await post(baseline, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": "no-such-session", "mcp-protocol-version": "2025-11-25" });
  const body = await reply(res, 404);
  assert.equal(body.id, 1);
});

test("DELETE with the Mcp-Session-Id ends the session, and later requests with it give 404", async () => {
  const { sessionId, post: send } = await legacySession(baseline);
  const del = await fetch(baseline, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
  await del.arrayBuffer();
  assert.equal(del.status, 204);
  const res = await send({ id: 2, method: "ping" });
  await res.arrayBuffer();
  assert.equal(res.status, 404);
});

test("DELETE of an unknown Mcp-Session-Id gives 404", async () => {
  const res = await fetch(baseline, { method: "DELETE", headers: { "mcp-session-id": "no-such-session" } });
  await res.arrayBuffer();
  assert.equal(res.status, 404);
});

test("an MCP session lives in its Faultline session only: its id gives 404 at another session's endpoint", async () => {
  const other = await createSession(server, "baseline");
  const { sessionId } = await legacySession(baseline);
  const res = await post(other.mcpUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });
  await res.arrayBuffer();
  assert.equal(res.status, 404);
});

// ---- notifications, ping, calls, GET ----

test("notifications/initialized gives 202 with an empty body", async () => {
  const init = await initialize(baseline, "2025-11-25");
  await init.arrayBuffer();
  const sessionId = init.headers.get("mcp-session-id") ?? "";
  const res = await post(baseline, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });
  assert.equal(res.status, 202);
  assert.equal(await res.text(), "");
});

test("ping gives an empty result", async () => {
  const { post: send } = await legacySession(baseline);
  const body = await reply(await send({ id: 3, method: "ping" }), 200);
  assert.deepEqual(body, { jsonrpc: "2.0", id: 3, result: {} });
});

for (const version of LEGACY_VERSIONS) {
  test(`tools/call echo at ${version} returns the text, without resultType`, async () => {
    const { post: send } = await legacySession(baseline, version);
    const body = await reply(await send({ id: 4, method: "tools/call", params: { name: "echo", arguments: { text: version } } }), 200);
    assert.deepEqual(body.result, { content: [{ type: "text", text: version }] });
  });
}

test("tools/list in a legacy session has no 2026 fields (resultType, ttlMs, cacheScope)", async () => {
  const { post: send } = await legacySession(baseline);
  const body = await reply(await send({ id: 5, method: "tools/list" }), 200);
  assert.ok(body.result.tools.length > 0);
  assert.equal(body.result.resultType, undefined);
  assert.equal(body.result.ttlMs, undefined);
  assert.equal(body.result.cacheScope, undefined);
});

test("an unknown method in a legacy session gives -32601", async () => {
  const { post: send } = await legacySession(baseline);
  const body = await reply(await send({ id: 6, method: "tools/frobnicate" }), 200);
  assert.equal(body.error.code, -32601);
});

test("server/discover, a 2026-07-28 method, is unknown in a legacy session (-32601)", async () => {
  const { post: send } = await legacySession(baseline);
  const body = await reply(await send({ id: 7, method: "server/discover" }), 200);
  assert.equal(body.error.code, -32601);
});

test("GET on the MCP endpoint with an Mcp-Session-Id gives 405 (no standalone SSE stream)", async () => {
  const { sessionId } = await legacySession(baseline);
  const res = await fetch(baseline, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
  await res.arrayBuffer();
  assert.equal(res.status, 405);
});

test("a JSON-RPC response that answers no pending server request gives 400", async () => {
  const { post: send } = await legacySession(baseline);
  const res = await send({ id: "elicit-unknown", result: { action: "accept", content: {} } });
  await reply(res, 400);
});

// ---- Origin (DNS rebinding) ----

test("an initialize from Origin http://evil.example gives 403 with a JSON-RPC error without id", async () => {
  const body = await reply(await initialize(baseline, "2025-11-25", { origin: "http://evil.example" }), 403);
  assert.equal(body.id, undefined);
  assert.equal(typeof body.error.code, "number");
  assert.match(body.error.message, /evil\.example/);
});

test("a request in an existing session from Origin http://evil.example gives 403", async () => {
  const { post: send } = await legacySession(baseline);
  const res = await send({ id: 8, method: "ping" }, { origin: "http://evil.example" });
  await res.arrayBuffer();
  assert.equal(res.status, 403);
});

test("an Origin that is not a URL gives 403", async () => {
  const res = await initialize(baseline, "2025-11-25", { origin: "not a url" });
  await res.arrayBuffer();
  assert.equal(res.status, 403);
});

test("Origin http://localhost:1234 is accepted", async () => {
  const res = await initialize(baseline, "2025-11-25", { origin: "http://localhost:1234" });
  const body = await reply(res, 200);
  assert.equal(body.result.protocolVersion, "2025-11-25");
  assert.ok(res.headers.get("mcp-session-id"));
});

test("the server's own origin is accepted", async () => {
  const res = await initialize(baseline, "2025-11-25", { origin: new URL(baseline).origin });
  assert.equal((await reply(res, 200)).result.protocolVersion, "2025-11-25");
});

// ---- elicitation.approval: a real elicitation/create on the POST's SSE stream ----

const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };

/** Calls the approval-gated tool and returns the SSE stream's messages, one at a time. */
async function callNeedingApproval(version: string) {
  const session = await createSession(server, "elicitation.approval");
  const { post: send } = await legacySession(session.mcpUrl, version, { elicitation: {} });
  const res = await send({ id: 9, method: "tools/call", params: ORDER });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  assert.ok(res.body);
  const messages = sseMessages(res.body);
  const next = async () => {
    const { value, done } = await messages.next();
    assert.equal(done, false, "the stream has another message");
    return value as Json;
  };
  return { send, messages, next };
}

for (const version of LEGACY_VERSIONS) {
  test(`at ${version} the tools/call stream carries an elicitation/create request from the server`, async () => {
    const { messages, next } = await callNeedingApproval(version);
    const request = await next();
    assert.equal(request.jsonrpc, "2.0");
    assert.equal(request.method, "elicitation/create");
    assert.ok(typeof request.id === "string" || typeof request.id === "number", "a request, with an id");
    assert.match(request.params.message, /place_order/);
    assert.equal(request.params.requestedSchema.type, "object");
    await messages.return(undefined);
  });

  test(`at ${version} accepting the elicitation (answer POST gives 202) delivers the tool's result on the same stream`, async () => {
    const { send, messages, next } = await callNeedingApproval(version);
    const request = await next();
    const answer = await send({ id: request.id, result: { action: "accept", content: { approved: true } } });
    assert.equal(answer.status, 202);
    assert.equal(await answer.text(), "");
    const response = await next();
    assert.equal(response.id, 9);
    assert.deepEqual(response.result.content, [{ type: "text", text: "Order #1 placed: 2 x tea" }]);
    assert.equal(response.result.isError, undefined);
    assert.equal((await messages.next()).done, true, "the stream ends after the response");
  });
}

test("declining the elicitation delivers an isError tool result on the stream", async () => {
  const { send, next } = await callNeedingApproval("2025-11-25");
  const request = await next();
  assert.equal((await send({ id: request.id, result: { action: "decline" } })).status, 202);
  const response = await next();
  assert.equal(response.id, 9);
  assert.equal(response.result.isError, true);
  assert.match(response.result.content[0].text, /not approved \(decline\)/);
});

test("answering the elicitation with a JSON-RPC error delivers an isError tool result", async () => {
  const { send, next } = await callNeedingApproval("2025-11-25");
  const request = await next();
  assert.equal((await send({ id: request.id, error: { code: -32601, message: "Method not found" } })).status, 202);
  const response = await next();
  assert.equal(response.result.isError, true);
});

test("an elicitation answer can be delivered only once: a second answer with the same id gives 400", async () => {
  const { send, next } = await callNeedingApproval("2025-11-25");
  const request = await next();
  assert.equal((await send({ id: request.id, result: { action: "accept", content: { approved: true } } })).status, 202);
  await next();
  const again = await send({ id: request.id, result: { action: "accept", content: { approved: true } } });
  await again.arrayBuffer();
  assert.equal(again.status, 400);
});

/** Calls the approval-gated tool in a session whose client declared `capabilities`; the whole answer, JSON or stream. */
async function callWith(capabilities: Json, params: Json = {}): Promise<{ contentType: string; messages: Json[] }> {
  const session = await createSession(server, "elicitation.approval", params);
  const { post: send } = await legacySession(session.mcpUrl, "2025-11-25", capabilities);
  const res = await send({ id: 10, method: "tools/call", params: ORDER });
  assert.equal(res.status, 200);
  const contentType = res.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/event-stream")) return { contentType, messages: [(await res.json()) as Json] };
  const messages: Json[] = [];
  for await (const message of sseMessages(res.body as ReadableStream<Uint8Array>)) messages.push(message);
  return { contentType, messages };
}

test("a client that declared no elicitation capability is asked nothing: -32600 naming the elicitation capability, before the tool runs", async () => {
  const { contentType, messages } = await callWith({});
  assert.match(contentType, /^application\/json/);
  assert.equal(messages.length, 1, JSON.stringify(messages));
  assert.equal(messages[0]?.id, 10);
  assert.equal(messages[0]?.error.code, -32600);
  assert.match(messages[0]?.error.message, /^Missing required client capability: place_order needs elicitation/);
  assert.deepEqual(messages[0]?.error.data, { requiredCapabilities: { elicitation: {} } });
});

test("in url mode, a client whose elicitation capability is form-only is sent no elicitation/create: -32600 naming elicitation.url", async () => {
  const { messages } = await callWith({ elicitation: {} }, { mode: "url" });
  assert.deepEqual(
    messages.map((m) => m.method ?? `response ${m.id}`),
    ["response 10"],
  );
  assert.equal(messages[0]?.error.code, -32600);
  assert.match(messages[0]?.error.message, /elicitation\.url/);
  assert.deepEqual(messages[0]?.error.data, { requiredCapabilities: { elicitation: { url: {} } } });
});

test("in url mode, a client that declared elicitation.url gets an elicitation/create in url mode with an elicitationId", async () => {
  const session = await createSession(server, "elicitation.approval", { mode: "url" });
  const { post: send } = await legacySession(session.mcpUrl, "2025-11-25", { elicitation: { url: {} } });
  const res = await send({ id: 11, method: "tools/call", params: ORDER });
  const messages = sseMessages(res.body as ReadableStream<Uint8Array>);
  const request = (await messages.next()).value as Json;
  assert.equal(request.method, "elicitation/create");
  assert.equal(request.params.mode, "url");
  assert.match(request.params.url, /^https:\/\//);
  assert.equal(typeof request.params.elicitationId, "string");
  assert.equal((await send({ id: request.id, result: { action: "accept" } })).status, 202);
  const response = (await messages.next()).value as Json;
  assert.equal(response.id, 11);
  assert.equal(response.result.isError, undefined);
});
