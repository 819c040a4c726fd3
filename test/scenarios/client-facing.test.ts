import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { classify, type Verdict } from "../../src/classify/index.ts";
import { wellKnownRoutes } from "../../routes/well-known.ts";
import { createSession, legacySession, MODERN, modernMeta, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { sseMessages, streamText } from "../helpers/sse.ts";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

type Json = Record<string, any>;
type Capabilities = Record<string, unknown>;

interface Seen {
  status: number;
  headers: Headers;
  text: string;
  json: Json | undefined;
  verdict: Verdict;
}

/** Reads a response and runs it, with the request that caused it, through the project's classifier. */
async function see(res: Response, request: { headers: Record<string, string>; body: Json }): Promise<Seen> {
  const text = await res.text();
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  const verdict = classify({ request, response: { status: res.status, headers: Object.fromEntries(res.headers), body: text } });
  return { status: res.status, headers: res.headers, text, json, verdict };
}

/** A 2026-07-28 request, seen. */
async function modern(
  mcpUrl: string,
  id: number | string,
  method: string,
  params: Json = {},
  options: { capabilities?: Capabilities; headers?: Record<string, string> } = {},
): Promise<Seen> {
  const res = await postModern(mcpUrl, id, method, params, options);
  const headers = { "mcp-protocol-version": MODERN, "mcp-method": method, ...options.headers };
  return see(res, { headers, body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta(options.capabilities) } } });
}

const call = (name: string, args: Json = {}, extra: Json = {}) => ({ name, arguments: args, ...extra });

type Legacy = Awaited<ReturnType<typeof legacySession>>;

/** A legacy request on an MCP session, seen. */
async function legacy(session: Legacy, body: Json, headers: Record<string, string> = {}): Promise<Seen> {
  const res = await session.post(body, headers);
  return see(res, { headers: { "mcp-session-id": session.sessionId, ...headers }, body: { jsonrpc: "2.0", ...body } });
}

/** A legacy initialize with extra headers (legacySession() sends none). */
function initialize(mcpUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "faultline-test", version: "0.0.0" } },
    }),
  });
}

function toolText(seen: Seen): string {
  return String(seen.json?.result?.content?.[0]?.text ?? "");
}

function toolNames(seen: Seen): string[] {
  return (seen.json?.result?.tools ?? []).map((t: Json) => t.name as string);
}

/** Parses `Bearer a="b", c="d"` into its parameters. */
function challenge(seen: Seen): Record<string, string> {
  const header = seen.headers.get("www-authenticate") ?? "";
  assert.match(header, /^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** Reads a legacy SSE response, answering each server request with `answer(request)`; returns every message. */
async function driveLegacyStream(session: Legacy, res: Response, answer: (request: Json) => Json): Promise<Json[]> {
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const messages: Json[] = [];
  for await (const message of sseMessages(res.body as ReadableStream<Uint8Array>)) {
    messages.push(message);
    if (typeof message.method === "string" && message.id !== undefined) {
      const reply = await session.post({ id: message.id, result: answer(message) });
      assert.equal(reply.status, 202);
      await reply.arrayBuffer();
    }
    if ("result" in message || "error" in message) break;
  }
  return messages;
}

const finalResult = (messages: Json[]) => messages.at(-1)?.result as Json;

// ---- compat.sdk_v2 ----

test("compat.sdk_v2 show_negotiated_mcp_protocol reports the modern era and 2026-07-28", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("show_negotiated_mcp_protocol"));
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.json?.result.structuredContent, { era: "modern", protocolVersion: MODERN, clientCapabilities: [] });
  assert.equal(seen.json?.result.resultType, "complete");
  assert.equal(seen.verdict.outcome, "TOOL_SUCCESS");
});

test("compat.sdk_v2 show_negotiated_mcp_protocol reports the legacy era and the version initialize negotiated", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl, "2025-06-18");
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("show_negotiated_mcp_protocol") });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.era, "legacy");
  assert.equal(seen.json?.result.structuredContent.protocolVersion, "2025-06-18");
  assert.equal(seen.json?.result.resultType, undefined);
});

test("compat.sdk_v2 lists its tools with truthful annotations and x-mcp-header Region on the region argument", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/list");
  const tools = seen.json?.result.tools as Json[];
  const byName = (name: string) => tools.find((t) => t.name === name) as Json;
  const region = byName("verify_order_region_param_header");
  assert.equal(region.inputSchema.properties.region["x-mcp-header"], "Region");
  assert.deepEqual(region.inputSchema.required, ["region"]);
  assert.equal(region.annotations.readOnlyHint, true);
  assert.equal(byName("show_negotiated_mcp_protocol").annotations.readOnlyHint, true);
  const close = byName("simulate_ticket_close_mrtr").annotations;
  assert.deepEqual([close.readOnlyHint, close.destructiveHint, close.idempotentHint, close.openWorldHint], [false, false, true, false]);
});

test("compat.sdk_v2 verify_order_region_param_header reports a matching Mcp-Param-Region header", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }), { headers: { "mcp-param-region": "eu-west" } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.matched, true);
  assert.equal(seen.json?.result.isError, undefined);
});

test("compat.sdk_v2 verify_order_region_param_header decodes a base64-encoded non-ASCII header before comparing", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const encoded = `=?base64?${Buffer.from("Zürich", "utf8").toString("base64")}?=`;
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "Zürich" }), { headers: { "mcp-param-region": encoded } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.matched, true);
});

test("compat.sdk_v2 answers a mismatched Mcp-Param-Region with 400 and HeaderMismatch -32020 before the tool runs", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }), { headers: { "mcp-param-region": "us-east" } });
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32020);
  assert.match(seen.json?.error.message, /Mcp-Param-Region/);
  assert.equal(seen.verdict.code, -32020);
  assert.equal(seen.verdict.retry.decision, "fix-input");
});

test("compat.sdk_v2 answers a missing Mcp-Param-Region with 400 and -32020 in 2026-07-28", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }));
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32020);
});

test("compat.sdk_v2 verify_order_region_param_header expects no header in the legacy era", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl);
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("verify_order_region_param_header", { region: "eu-west" }) });
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.json?.result.structuredContent, { era: "legacy", region: "eu-west", header: null, matched: false, headerRequired: false });
});

test("compat.sdk_v2 simulate_ticket_close_mrtr asks for confirmation with input_required and closes the ticket on accept", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const capabilities = { elicitation: {} };
  const params = call("simulate_ticket_close_mrtr", { ticketId: "TCK-7" });
  const first = await modern(mcpUrl, 1, "tools/call", params, { capabilities });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json?.result.resultType, "input_required");
  assert.equal(first.json?.result.inputRequests.confirm.method, "elicitation/create");
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["confirm"]);

  const retry = { ...params, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: first.json?.result.requestState };
  const second = await modern(mcpUrl, 2, "tools/call", retry, { capabilities });
  assert.equal(second.json?.result.resultType, "complete");
  assert.equal(toolText(second), "Ticket TCK-7 closed.");
  assert.equal(second.verdict.outcome, "TOOL_SUCCESS");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr gives isError when the confirmation is declined", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const capabilities = { elicitation: {} };
  const params = call("simulate_ticket_close_mrtr");
  const first = await modern(mcpUrl, 1, "tools/call", params, { capabilities });
  const retry = { ...params, inputResponses: { confirm: { action: "decline" } }, requestState: first.json?.result.requestState };
  const second = await modern(mcpUrl, 2, "tools/call", retry, { capabilities });
  assert.equal(second.json?.result.isError, true);
  assert.match(toolText(second), /not closed \(decline\)/);
  assert.equal(second.verdict.outcome, "TOOL_ERROR");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr needs the elicitation capability in 2026-07-28 (400, -32021)", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("simulate_ticket_close_mrtr"));
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32021);
  assert.equal(seen.verdict.retry.decision, "renegotiate");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr sends elicitation/create on the legacy SSE stream and closes on accept", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl, "2025-11-25", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: call("simulate_ticket_close_mrtr", { ticketId: "TCK-9" }) });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept", content: { confirm: true } }));
  assert.equal(messages[0]?.method, "elicitation/create");
  assert.equal(finalResult(messages).content[0].text, "Ticket TCK-9 closed.");
});

// ---- auth.* ----

test("auth.unauthorized answers a request without a bearer token with 401 and a resource_metadata challenge", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { scope: "faultline:read" });
  const seen = await modern(mcpUrl, 1, "tools/list");
  assert.equal(seen.status, 401);
  const params = challenge(seen);
  assert.equal(params.resource_metadata, `${server.url}/.well-known/oauth-protected-resource`);
  assert.equal(params.scope, "faultline:read");
  assert.equal(params.error, undefined, "RFC 6750 §3.1: no error code when the request carried no credentials");
  assert.equal(seen.verdict.outcome, "HTTP_ERROR");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("auth.unauthorized lets a request with any bearer token through", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const seen = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "hi" }), { headers: { authorization: "Bearer anything-goes" } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(toolText(seen), "hi");
});

test("auth.unauthorized refuses a legacy initialize without a token and accepts one with a token", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
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
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { when: "always" });
  const seen = await modern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: "Bearer t" } });
  assert.equal(seen.status, 401);
  assert.equal(challenge(seen).error, "invalid_token");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("the resource_metadata URL of the challenge serves RFC 9728 Protected Resource Metadata", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const url = challenge(await modern(mcpUrl, 1, "tools/list")).resource_metadata as string;
  const res = await wellKnownRoutes.request(url);
  assert.equal(res.status, 200);
  const doc = (await res.json()) as Json;
  assert.equal(doc.resource, server.url);
  assert.ok(Array.isArray(doc.authorization_servers) && doc.authorization_servers.length === 1);
  assert.deepEqual(doc.bearer_methods_supported, ["header"]);
  assert.ok(doc.scopes_supported.includes("faultline:write"));
});

test("the path-suffixed Protected Resource Metadata names the MCP endpoint as its resource (RFC 9728 §3.1)", async () => {
  const res = await wellKnownRoutes.request("https://faultline.example/.well-known/oauth-protected-resource/s/abc/mcp");
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as Json).resource, "https://faultline.example/s/abc/mcp");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
});

test("auth.insufficient_scope answers a destructive tool call with 403 and an insufficient_scope challenge", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope");
  const seen = await modern(mcpUrl, 1, "tools/call", call("place_order", { item: "tea", quantity: 1 }));
  assert.equal(seen.status, 403);
  const params = challenge(seen);
  assert.equal(params.error, "insufficient_scope");
  assert.equal(params.scope, "faultline:write");
  assert.equal(params.resource_metadata, `${server.url}/.well-known/oauth-protected-resource`);
  assert.equal(seen.verdict.outcome, "HTTP_ERROR");
  assert.equal(seen.verdict.retry.decision, "reauthorize");
});

test("auth.insufficient_scope lets read-only tools through", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope");
  const seen = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "ok" }));
  assert.equal(seen.status, 200);
  assert.equal(toolText(seen), "ok");
});

test("auth.insufficient_scope with denials=1 lets the second call through, as after a step-up", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope", { tools: ["echo"], scope: "echo:use", denials: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", call("echo", { text: "a" }));
  assert.equal(first.status, 403);
  assert.equal(challenge(first).scope, "echo:use");
  const second = await modern(mcpUrl, 2, "tools/call", call("echo", { text: "b" }));
  assert.equal(second.status, 200);
});

test("auth.insufficient_scope refuses a legacy tools/call with 403 too", async () => {
  const { mcpUrl } = await createSession(server, "auth.insufficient_scope");
  const session = await legacySession(mcpUrl);
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("place_order", { item: "tea", quantity: 1 }) });
  assert.equal(seen.status, 403);
  assert.equal(challenge(seen).error, "insufficient_scope");
});

test("auth.token_expiry answers the request after `uses` with 401 invalid_token, and a new token starts fresh", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2 });
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
  const { mcpUrl } = await createSession(server, "auth.token_expiry");
  const seen = await modern(mcpUrl, 1, "tools/list");
  assert.equal(seen.status, 401);
  assert.equal(challenge(seen).error, undefined);
});

test("auth.token_expiry counts the legacy handshake against the token", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2 });
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

// ---- catalog.mutation ----

test("catalog.mutation swaps retiring_tool for added_tool after trigger_tool_change (2026-07-28, plain JSON answer)", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation");
  const before = await modern(mcpUrl, 1, "tools/list");
  assert.ok(toolNames(before).includes("retiring_tool"));
  assert.ok(!toolNames(before).includes("added_tool"));
  const trigger = await modern(mcpUrl, 2, "tools/call", call("trigger_tool_change"));
  assert.match(trigger.headers.get("content-type") ?? "", /^application\/json/);
  assert.match(toolText(trigger), /catalogue changed/);
  const afterList = await modern(mcpUrl, 3, "tools/list");
  assert.ok(toolNames(afterList).includes("added_tool"));
  assert.ok(!toolNames(afterList).includes("retiring_tool"));
  assert.equal(afterList.json?.result.ttlMs, 0);
  assert.equal(toolText(await modern(mcpUrl, 4, "tools/call", call("added_tool"))), "added_tool ran.");
});

test("catalog.mutation announces the 2026-07-28 change on a subscriptions/listen stream that asked for tool list changes", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation");
  const stop = new AbortController();
  const listen = await fetch(mcpUrl, {
    method: "POST",
    signal: stop.signal,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: modernMeta() } }),
  });
  assert.equal(listen.status, 200);
  assert.match(listen.headers.get("content-type") ?? "", /^text\/event-stream/);
  const stream = streamText(listen.body as ReadableStream<Uint8Array>);
  try {
    assert.ok(await stream.until("notifications/subscriptions/acknowledged"), stream.text);
    await modern(mcpUrl, 2, "tools/call", call("trigger_tool_change"));
    assert.ok(await stream.until("notifications/tools/list_changed"), stream.text);
    const event = stream.text.split("\n").filter((line) => line.startsWith("data: ") && line.includes("list_changed"))[0] ?? "";
    const message = JSON.parse(event.slice(6)) as { params: { _meta: Record<string, unknown> } };
    assert.equal(message.params._meta["io.modelcontextprotocol/subscriptionId"], "listen-1");
  } finally {
    stop.abort();
    await stream.cancel();
  }
});

test("catalog.mutation answers a call to the retired tool with -32602 Unknown tool", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation");
  await modern(mcpUrl, 1, "tools/call", call("trigger_tool_change"));
  const seen = await modern(mcpUrl, 2, "tools/call", call("retiring_tool"));
  assert.equal(seen.json?.error.code, -32602);
  assert.equal(seen.json?.error.message, "Unknown tool: retiring_tool");
  assert.equal(seen.verdict.outcome, "JSONRPC_ERROR");
  assert.equal(seen.verdict.code, -32602);
});

test("catalog.mutation answers a call to the not-yet-added tool with -32602 Unknown tool", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation");
  const seen = await modern(mcpUrl, 1, "tools/call", call("added_tool"));
  assert.equal(seen.json?.error.code, -32602);
});

test("catalog.mutation sends notifications/tools/list_changed on the legacy trigger_tool_change SSE stream", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation");
  const session = await legacySession(mcpUrl);
  const res = await session.post({ id: 1, method: "tools/call", params: call("trigger_tool_change") });
  const messages = await driveLegacyStream(session, res, () => ({}));
  assert.deepEqual(messages.map((m) => m.method ?? "result"), ["notifications/tools/list_changed", "result"]);
  const list = await legacy(session, { id: 2, method: "tools/list" });
  assert.ok(toolNames(list).includes("added_tool"));
});

test("catalog.mutation with afterListCalls=1 changes the list on the second legacy tools/list, announced on its stream", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation", { afterListCalls: 1 });
  const session = await legacySession(mcpUrl);
  const first = await legacy(session, { id: 1, method: "tools/list" });
  assert.match(first.headers.get("content-type") ?? "", /^application\/json/);
  assert.ok(toolNames(first).includes("retiring_tool"));
  const res = await session.post({ id: 2, method: "tools/list" });
  const messages = await driveLegacyStream(session, res, () => ({}));
  assert.equal(messages[0]?.method, "notifications/tools/list_changed");
  const names = (finalResult(messages).tools as Json[]).map((t) => t.name);
  assert.ok(names.includes("added_tool") && !names.includes("retiring_tool"));
});

test("catalog.mutation with afterListCalls=1 changes the second 2026-07-28 tools/list without a notification", async () => {
  const { mcpUrl } = await createSession(server, "catalog.mutation", { afterListCalls: 1 });
  assert.ok(toolNames(await modern(mcpUrl, 1, "tools/list")).includes("retiring_tool"));
  const second = await modern(mcpUrl, 2, "tools/list");
  assert.match(second.headers.get("content-type") ?? "", /^application\/json/);
  assert.ok(toolNames(second).includes("added_tool"));
});

// ---- pagination.bad_cursor ----

test("pagination.bad_cursor pages tools/list with nextCursor until the last page", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 2 });
  const first = await modern(mcpUrl, 1, "tools/list");
  assert.deepEqual(toolNames(first), ["echo", "place_order"]);
  assert.equal(typeof first.json?.result.nextCursor, "string");
  const second = await modern(mcpUrl, 2, "tools/list", { cursor: first.json?.result.nextCursor });
  assert.deepEqual(toolNames(second), ["run_configured_test_scenario"]);
  assert.equal(second.json?.result.nextCursor, undefined);
  assert.equal(second.json?.result.cacheScope, "public");
});

test("pagination.bad_cursor answers a tampered cursor with -32602", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 1 });
  const cursor = String((await modern(mcpUrl, 1, "tools/list")).json?.result.nextCursor);
  const [payload, sum] = cursor.split(".");
  const forged = Buffer.from(JSON.stringify({ o: 2 })).toString("base64url");
  assert.notEqual(forged, payload);
  const seen = await modern(mcpUrl, 2, "tools/list", { cursor: `${forged}.${sum}` });
  assert.equal(seen.status, 200);
  assert.equal(seen.json?.error.code, -32602);
  assert.match(seen.json?.error.message, /tampered/);
  assert.equal(seen.verdict.outcome, "JSONRPC_ERROR");
  assert.equal(seen.verdict.code, -32602);
});

test("pagination.bad_cursor answers a cursor it never issued, or one that is not a string, with -32602", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor");
  for (const [id, cursor] of [[1, "not-a-cursor"], [2, ""], [3, 42]] as const) {
    const seen = await modern(mcpUrl, id, "tools/list", { cursor });
    assert.equal(seen.json?.error.code, -32602, `cursor ${JSON.stringify(cursor)}`);
  }
});

test("pagination.bad_cursor with expiredCursor=1 issues a first nextCursor that fails as expired", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor", { pageSize: 1, expiredCursor: 1 });
  const first = await modern(mcpUrl, 1, "tools/list");
  const seen = await modern(mcpUrl, 2, "tools/list", { cursor: first.json?.result.nextCursor });
  assert.equal(seen.json?.error.code, -32602);
  assert.match(seen.json?.error.message, /expired/);
});

test("pagination.bad_cursor answers a bad cursor with -32602 in the legacy era too", async () => {
  const { mcpUrl } = await createSession(server, "pagination.bad_cursor");
  const session = await legacySession(mcpUrl);
  const first = await legacy(session, { id: 1, method: "tools/list" });
  assert.equal(first.json?.result.ttlMs, undefined);
  const seen = await legacy(session, { id: 2, method: "tools/list", params: { cursor: `${first.json?.result.nextCursor}x` } });
  assert.equal(seen.json?.error.code, -32602);
  assert.equal(seen.verdict.code, -32602);
});

// ---- elicitation.decline ----

async function declineRound(mcpUrl: string, previous: Seen, id: number, key: string, answer: Json): Promise<Seen> {
  const params = { ...call("place_order", { item: "tea", quantity: 1 }), inputResponses: { [key]: answer }, requestState: previous.json?.result.requestState };
  return modern(mcpUrl, id, "tools/call", params, { capabilities: { elicitation: {} } });
}

const order = call("place_order", { item: "tea", quantity: 1 });

test("elicitation.decline reports a decline as isError with action decline", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["approval"]);
  const seen = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  assert.equal(seen.json?.result.isError, true);
  assert.match(toolText(seen), /^Declined:/);
  assert.deepEqual(seen.json?.result.structuredContent, { tool: "place_order", action: "decline", rounds: 1 });
  assert.equal(seen.verdict.outcome, "TOOL_ERROR");
});

test("elicitation.decline reports a cancel differently from a decline", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const seen = await declineRound(mcpUrl, first, 2, "approval", { action: "cancel" });
  assert.match(toolText(seen), /^Cancelled:/);
  assert.equal(seen.json?.result.structuredContent.action, "cancel");
});

test("elicitation.decline with repeat=1 asks again after a decline with a new input_required, then gives up", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const again = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  assert.equal(again.json?.result.resultType, "input_required");
  assert.match(again.json?.result.inputRequests["approval-2"].params.message, /declined 1 time/);
  assert.notEqual(again.json?.result.requestState, first.json?.result.requestState);
  assert.deepEqual(again.verdict.retry.inputKeys, ["approval-2"]);
  const last = await declineRound(mcpUrl, again, 3, "approval-2", { action: "decline" });
  assert.equal(last.json?.result.isError, true);
  assert.equal(last.json?.result.structuredContent.rounds, 2);
});

test("elicitation.decline with repeat=1 runs the tool when the second round is accepted", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const again = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  const done = await declineRound(mcpUrl, again, 3, "approval-2", { action: "accept", content: { approved: true } });
  assert.match(toolText(done), /^Order #1 placed/);
});

test("elicitation.decline with repeat=1 asks twice on the legacy SSE stream", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const session = await legacySession(mcpUrl, "2025-11-25", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  let asked = 0;
  const messages = await driveLegacyStream(session, res, () => (++asked === 1 ? { action: "decline" } : { action: "accept", content: { approved: true } }));
  assert.deepEqual(messages.map((m) => m.method ?? "result"), ["elicitation/create", "elicitation/create", "result"]);
  assert.match(finalResult(messages).content[0].text, /^Order #1 placed/);
});

// ---- elicitation.url_mode ----

const urlCapabilities = { elicitation: { form: {}, url: {} } };

test("elicitation.url_mode asks with a 2026-07-28 url input request without elicitationId", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: urlCapabilities });
  const request = first.json?.result.inputRequests.approval;
  assert.equal(request.method, "elicitation/create");
  assert.equal(request.params.mode, "url");
  assert.match(request.params.url, /^https:\/\//);
  assert.equal(request.params.elicitationId, undefined);
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["approval"]);
  const params = { ...order, inputResponses: { approval: { action: "accept" } }, requestState: first.json?.result.requestState };
  const done = await modern(mcpUrl, 2, "tools/call", params, { capabilities: urlCapabilities });
  assert.match(toolText(done), /^Order #1 placed/);
});

test("elicitation.url_mode answers a client without elicitation.url with -32021 naming elicitation.url", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const seen = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: { form: {} } } });
  assert.equal(seen.json?.error.code, -32021);
  assert.deepEqual(seen.json?.error.data, { requiredCapabilities: { elicitation: { url: {} } } });
  assert.equal(seen.verdict.code, -32021);
  assert.equal(seen.verdict.retry.decision, "renegotiate");
  // The spec sends -32021 with HTTP 400; a tool's RpcError travels with 200 until the endpoint checks elicitation.url itself.
});

test("elicitation.url_mode with pendingRounds=1 asks again after the first accept", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"], pendingRounds: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: urlCapabilities });
  const params = { ...order, inputResponses: { approval: { action: "accept" } }, requestState: first.json?.result.requestState };
  const again = await modern(mcpUrl, 2, "tools/call", params, { capabilities: urlCapabilities });
  assert.deepEqual(Object.keys(again.json?.result.inputRequests ?? {}), ["approval-2"]);
});

test("elicitation.url_mode sends legacy elicitation/create with mode url and an elicitationId, then elicitation/complete", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const session = await legacySession(mcpUrl, "2025-11-25", urlCapabilities);
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept" }));
  assert.deepEqual(messages.map((m) => m.method ?? "result"), ["elicitation/create", "notifications/elicitation/complete", "result"]);
  const elicitationId = messages[0]?.params.elicitationId;
  assert.equal(messages[0]?.params.mode, "url");
  assert.equal(typeof elicitationId, "string");
  assert.equal(messages[1]?.params.elicitationId, elicitationId);
  assert.match(finalResult(messages).content[0].text, /^Order #1 placed/);
});

test("elicitation.url_mode gives a legacy client without elicitation.url an isError result", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const session = await legacySession(mcpUrl, "2025-06-18", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept" }));
  assert.equal(finalResult(messages).isError, true);
  assert.match(finalResult(messages).content[0].text, /elicitation\.url/);
});

// ---- session.* ----

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

// ---- catalogue ----

test("each client-facing scenario's catalogue example creates a session", async () => {
  const ids = ["compat.sdk_v2", "auth.unauthorized", "auth.insufficient_scope", "auth.token_expiry", "catalog.mutation", "pagination.bad_cursor"];
  ids.push("elicitation.decline", "elicitation.url_mode", "session.expire_after", "session.missing_id");
  const catalogue = ((await (await fetch(`${server.url}/api/scenarios`)).json()) as Json).scenarios as Json[];
  for (const id of ids) {
    const entry = catalogue.find((s) => s.id === id);
    assert.ok(entry, `${id} is in the catalogue`);
    await createSession(server, id, entry.example);
  }
});
