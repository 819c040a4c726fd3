import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";
import { sseEvents } from "../helpers/sse.ts";

// The conformance scenario and the server behaviour the official suites exercise, in fast in-process tests
// (the suites themselves run from .ci/conformance.sh).

let mcpUrl: string;
const server = useServer(async (started) => {
  mcpUrl = (await createSession(started, "conformance")).mcpUrl;
});

type Json = Record<string, any>;
const ALL = { elicitation: {}, sampling: {}, roots: {} };

/** Every JSON-RPC message of an SSE (or JSON) response. */
async function messages(res: Response): Promise<Json[]> {
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) return [(await res.json()) as Json];
  const out: Json[] = [];
  for await (const event of sseEvents(res.body as ReadableStream<Uint8Array>)) if (event.data.trim()) out.push(JSON.parse(event.data));
  return out;
}

async function result(res: Response): Promise<Json> {
  const last = (await messages(res)).at(-1) as Json;
  assert.ok(last.result, JSON.stringify(last));
  return last.result;
}

test("a 2026-07-28 tool call sends no notifications/message unless _meta names a logLevel", async () => {
  const silent = await messages(await postModern(mcpUrl, 1, "tools/call", { name: "test_logging_tool", arguments: {} }));
  assert.deepEqual(silent.filter((m) => m.method === "notifications/message"), []);
  const loud = await messages(await postModern(mcpUrl, 2, "tools/call", { name: "test_logging_tool", arguments: {} }, { meta: { "io.modelcontextprotocol/logLevel": "info" } }));
  const logs = loud.filter((m) => m.method === "notifications/message");
  assert.deepEqual(logs.map((m) => m.params.level), ["info"], "debug is below the requested info level");
});

test("test_tool_with_progress reports 0, 50 and 100 of 100 for the request's progressToken before its result", async () => {
  const all = await messages(await postModern(mcpUrl, 3, "tools/call", { name: "test_tool_with_progress", arguments: {} }, { meta: { progressToken: "p-1" } }));
  const progress = all.filter((m) => m.method === "notifications/progress").map((m) => [m.params.progressToken, m.params.progress, m.params.total]);
  assert.deepEqual(progress, [["p-1", 0, 100], ["p-1", 50, 100], ["p-1", 100, 100]]);
  assert.equal(all.at(-1)?.id, 3);
});

test("inputs asked together come back as one input_required result listing every key", async () => {
  const out = await result(await postModern(mcpUrl, 4, "tools/call", { name: "test_input_required_result_multiple_inputs", arguments: {} }, { capabilities: ALL }));
  assert.equal(out.resultType, "input_required");
  assert.deepEqual(Object.keys(out.inputRequests).sort(), ["client_roots", "greeting", "user_name"]);
  assert.deepEqual(Object.values(out.inputRequests).map((r: any) => r.method).sort(), ["elicitation/create", "roots/list", "sampling/createMessage"]);
});

test("a later round keeps the answers of earlier rounds in the signed requestState", async () => {
  const call = { name: "test_input_required_result_multi_round", arguments: {} };
  const accept = (content: Json) => ({ action: "accept", content });
  const first = await result(await postModern(mcpUrl, 5, "tools/call", call, { capabilities: ALL }));
  const second = await result(await postModern(mcpUrl, 6, "tools/call", { ...call, inputResponses: { step1: accept({ name: "Ada" }) }, requestState: first.requestState }, { capabilities: ALL }));
  assert.deepEqual(Object.keys(second.inputRequests), ["step2"]);
  assert.notEqual(second.requestState, first.requestState);
  const last = await result(await postModern(mcpUrl, 7, "tools/call", { ...call, inputResponses: { step2: accept({ color: "teal" }) }, requestState: second.requestState }, { capabilities: ALL }));
  assert.equal(last.resultType, "complete");
  assert.equal(last.content[0].text, "Ada likes teal.");
});

test("a malformed inputResponses is a -32602 protocol error", async () => {
  const res = await postModern(mcpUrl, 8, "tools/call", { name: "test_input_required_result_elicitation", arguments: {}, inputResponses: { user_name: 12345 } }, { capabilities: ALL });
  const body = (await res.json()) as Json;
  assert.equal(body.error.code, -32602);
});

test("a tool that needs sampling gets HTTP 400 with -32021 naming it when _meta does not declare it", async () => {
  const res = await postModern(mcpUrl, 9, "tools/call", { name: "test_missing_capability", arguments: {} });
  const body = (await res.json()) as Json;
  assert.equal(res.status, 400);
  assert.equal(body.error.code, -32021);
  assert.deepEqual(body.error.data.requiredCapabilities, { sampling: {} });
});

test("methods removed in 2026-07-28 (initialize, ping, logging/setLevel, resources/subscribe) get 404 with -32601", async () => {
  for (const [id, method] of [[10, "initialize"], [11, "ping"], [12, "logging/setLevel"], [13, "resources/subscribe"]] as const) {
    const res = await postModern(mcpUrl, id, method);
    const body = (await res.json()) as Json;
    assert.equal(res.status, 404, method);
    assert.equal(body.error.code, -32601, method);
  }
});

test("an MCP-Protocol-Version header that differs from _meta is a -32020 HeaderMismatch even when the body version is unknown", async () => {
  const res = await postModern(mcpUrl, 14, "server/discover", {}, { meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } });
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as Json).error.code, -32020);
});

test("cacheable 2026-07-28 results (resources/list, resources/read) carry ttlMs and cacheScope", async () => {
  for (const [id, method, params] of [[15, "resources/list", {}], [16, "resources/read", { uri: "test://static-text" }]] as const) {
    const out = await result(await postModern(mcpUrl, id, method, params));
    assert.equal(typeof out.ttlMs, "number", method);
    assert.ok(["public", "private"].includes(out.cacheScope), method);
  }
});

test("subscriptions/listen acknowledges first, then relays a tool list change tagged with the subscription id", async () => {
  const res = await postModern(mcpUrl, 17, "subscriptions/listen", { notifications: { toolsListChanged: true, resourcesListChanged: true } });
  const events = sseEvents(res.body as ReadableStream<Uint8Array>);
  const ack = JSON.parse(((await events.next()).value as { data: string }).data) as Json;
  assert.equal(ack.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack.params.notifications, { toolsListChanged: true }, "only the honoured part of the filter");
  assert.equal(ack.params._meta["io.modelcontextprotocol/subscriptionId"], 17);
  await result(await postModern(mcpUrl, 18, "tools/call", { name: "test_trigger_tool_change", arguments: {} }));
  const change = JSON.parse(((await events.next()).value as { data: string }).data) as Json;
  assert.equal(change.method, "notifications/tools/list_changed");
  assert.equal(change.params._meta["io.modelcontextprotocol/subscriptionId"], 17);
  await events.return(undefined);
});

test("legacy test_sampling sends sampling/createMessage on its SSE stream and answers with the client's reply", async () => {
  const { post } = await legacySession(mcpUrl, "2025-11-25", { sampling: {} });
  const res = await post({ id: 1, method: "tools/call", params: { name: "test_sampling", arguments: { prompt: "Say hi" } } });
  const events = sseEvents(res.body as ReadableStream<Uint8Array>);
  const request = JSON.parse(((await events.next()).value as { data: string }).data) as Json;
  assert.equal(request.method, "sampling/createMessage");
  assert.equal(request.params.messages[0].content.text, "Say hi");
  const answered = await post({ id: request.id, result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } });
  assert.equal(answered.status, 202);
  const final = JSON.parse(((await events.next()).value as { data: string }).data) as Json;
  assert.equal(final.result.content[0].text, "LLM response: hi");
});

test("a legacy session accepts MCP-Protocol-Version 2025-03-26, the version a request without the header is served as", async () => {
  const { post } = await legacySession(mcpUrl);
  const res = await post({ id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-03-26" });
  assert.equal(res.status, 200);
  assert.ok(((await res.json()) as Json).result.tools.length > 0);
});
