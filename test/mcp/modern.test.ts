import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, MODERN, modernMeta, postModern, useServer } from "../helpers/server.ts";

// 2026-07-28 over raw HTTP: stateless requests, header checks, resultType, and the input_required round trip.

/** A baseline session shared by the tests that only read. */
let baseline: string;
const server = useServer(async (started) => {
  baseline = (await createSession(started, "baseline")).mcpUrl;
});

type Json = Record<string, any>;

const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const ELICITATION = { elicitation: {} };

/** POSTs any body with exactly the given headers (plus JSON content type and Accept). */
function post(mcpUrl: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** The headers a correct 2026-07-28 client sends for this method (and tool name). */
function modernHeaders(method: string, name?: string): Record<string, string> {
  return { "mcp-protocol-version": MODERN, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) };
}

async function reply(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = JSON.parse(text) as Json;
  assert.equal(body.jsonrpc, "2.0");
  return body;
}

async function rpcError(res: Response, status: number, code: number, id: number | string): Promise<Json> {
  const body = await reply(res, status);
  assert.equal(body.result, undefined, "an error response carries no result");
  assert.equal(body.id, id);
  assert.equal(body.error.code, code, JSON.stringify(body.error));
  assert.equal(typeof body.error.message, "string");
  return body.error;
}

async function result(res: Response, id: number | string): Promise<Json> {
  const body = await reply(res, 200);
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  assert.equal(body.id, id);
  return body.result;
}

const echoBody = (id: number, meta: Record<string, unknown> = modernMeta(), name = "echo") => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: { text: "hi" }, _meta: meta },
});

function withoutKey(meta: Record<string, unknown>, key: string) {
  const { [key]: _dropped, ...rest } = meta;
  return rest;
}

// ---- required _meta: -32602 with HTTP 400 ----

test("a request without params._meta gives 400 with -32602", async () => {
  const res = await post(baseline, { jsonrpc: "2.0", id: 1, method: "tools/list" }, modernHeaders("tools/list"));
  const error = await rpcError(res, 400, -32602, 1);
  assert.match(error.message, /_meta/);
});

test("a request whose _meta lacks clientCapabilities gives 400 with -32602 naming the field", async () => {
  const meta = withoutKey(modernMeta(), "io.modelcontextprotocol/clientCapabilities");
  const error = await rpcError(await post(baseline, echoBody(2, meta), modernHeaders("tools/call", "echo")), 400, -32602, 2);
  assert.match(error.message, /io\.modelcontextprotocol\/clientCapabilities/);
});

test("a request whose _meta lacks protocolVersion gives 400 with -32602 naming the field", async () => {
  const meta = withoutKey(modernMeta(), "io.modelcontextprotocol/protocolVersion");
  const error = await rpcError(await post(baseline, echoBody(3, meta), modernHeaders("tools/call", "echo")), 400, -32602, 3);
  assert.match(error.message, /io\.modelcontextprotocol\/protocolVersion/);
});

test("a request without clientInfo in _meta is served (clientInfo is only a SHOULD)", async () => {
  const meta = withoutKey(modernMeta(), "io.modelcontextprotocol/clientInfo");
  const out = await result(await post(baseline, echoBody(4, meta), modernHeaders("tools/call", "echo")), 4);
  assert.deepEqual(out.content, [{ type: "text", text: "hi" }]);
});

// ---- header checks: -32020 HeaderMismatch with HTTP 400 ----

test("a missing MCP-Protocol-Version header gives 400 with -32020", async () => {
  const { "mcp-protocol-version": _v, ...headers } = modernHeaders("tools/call", "echo");
  const error = await rpcError(await post(baseline, echoBody(10), headers), 400, -32020, 10);
  assert.match(error.message, /MCP-Protocol-Version/);
});

test("an MCP-Protocol-Version header that differs from _meta gives 400 with -32020", async () => {
  const headers = { ...modernHeaders("tools/call", "echo"), "mcp-protocol-version": "2025-11-25" };
  const error = await rpcError(await post(baseline, echoBody(11), headers), 400, -32020, 11);
  assert.match(error.message, /2025-11-25/);
});

test("a missing Mcp-Method header gives 400 with -32020", async () => {
  const error = await rpcError(await post(baseline, echoBody(12), { "mcp-protocol-version": MODERN, "mcp-name": "echo" }), 400, -32020, 12);
  assert.match(error.message, /Mcp-Method/);
});

test("an Mcp-Method header that differs from the body's method gives 400 with -32020", async () => {
  const headers = { ...modernHeaders("tools/call", "echo"), "mcp-method": "tools/list" };
  const error = await rpcError(await post(baseline, echoBody(13), headers), 400, -32020, 13);
  assert.match(error.message, /Mcp-Method/);
});

test("an Mcp-Method header compared case-sensitively: Tools/Call does not match tools/call", async () => {
  const headers = { ...modernHeaders("tools/call", "echo"), "mcp-method": "Tools/Call" };
  await rpcError(await post(baseline, echoBody(14), headers), 400, -32020, 14);
});

test("a tools/call without an Mcp-Name header gives 400 with -32020", async () => {
  const error = await rpcError(await post(baseline, echoBody(15), modernHeaders("tools/call")), 400, -32020, 15);
  assert.match(error.message, /Mcp-Name/);
});

test("an Mcp-Name header that differs from params.name gives 400 with -32020", async () => {
  const error = await rpcError(await post(baseline, echoBody(16), modernHeaders("tools/call", "place_order")), 400, -32020, 16);
  assert.match(error.message, /place_order/);
});

test("an Mcp-Name header in the =?base64?...?= form is decoded before the comparison, so a correct value passes", async () => {
  const encoded = `=?base64?${Buffer.from("echo", "utf8").toString("base64")}?=`;
  assert.equal(encoded, "=?base64?ZWNobw==?=");
  const out = await result(await post(baseline, echoBody(17), modernHeaders("tools/call", encoded)), 17);
  assert.deepEqual(out.content, [{ type: "text", text: "hi" }]);
});

test("an Mcp-Name header in the base64 form that decodes to another name gives 400 with -32020", async () => {
  const encoded = `=?base64?${Buffer.from("echo2", "utf8").toString("base64")}?=`;
  const error = await rpcError(await post(baseline, echoBody(18), modernHeaders("tools/call", encoded)), 400, -32020, 18);
  assert.match(error.message, /'echo2'/, "the message shows the decoded value");
});

test("an Mcp-Name header whose base64 is not valid gives 400 with -32020", async () => {
  await rpcError(await post(baseline, echoBody(19), modernHeaders("tools/call", "=?base64?not*base64?=")), 400, -32020, 19);
});

test("an Mcp-Name header with upper-case base64 markers is not decoded and gives 400 with -32020", async () => {
  // The markers are case-sensitive and lower-case (2026-07-28 streamable-http, "Value Encoding").
  await rpcError(await post(baseline, echoBody(20), modernHeaders("tools/call", "=?BASE64?ZWNobw==?=")), 400, -32020, 20);
});

test("a header mismatch is answered before the tool runs: the call is not counted as a tool call", async () => {
  const session = await createSession(server, "baseline");
  await (await post(session.mcpUrl, echoBody(21), modernHeaders("tools/call", "nope"))).arrayBuffer();
  const view = (await (await fetch(`${server.url}/api/sessions/${session.id}`)).json()) as Json;
  assert.equal(view.counters["tool-calls:echo"], undefined);
});

// ---- version and capability errors ----

test("an unsupported protocol version gives 400 with -32022 and data.supported and data.requested", async () => {
  const meta = { ...modernMeta(), "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
  const headers = { ...modernHeaders("tools/call", "echo"), "mcp-protocol-version": "1900-01-01" };
  const error = await rpcError(await post(baseline, echoBody(30, meta), headers), 400, -32022, 30);
  assert.equal(error.data.requested, "1900-01-01");
  assert.ok(Array.isArray(error.data.supported));
  assert.ok(error.data.supported.includes(MODERN), JSON.stringify(error.data.supported));
});

test("a tools/call that needs elicitation, from a client without the elicitation capability, gives 400 with -32021", async () => {
  const session = await createSession(server, "elicitation.approval");
  const res = await postModern(session.mcpUrl, 31, "tools/call", { name: "place_order", arguments: { item: "tea", quantity: 1 } });
  const error = await rpcError(res, 400, -32021, 31);
  assert.deepEqual(error.data.requiredCapabilities, { elicitation: {} });
});

// ---- discovery, listings and resultType ----

test("server/discover names 2026-07-28 among the supported versions, with capabilities, ttlMs, cacheScope and serverInfo", async () => {
  const out = await result(await postModern(baseline, 40, "server/discover"), 40);
  assert.equal(out.resultType, "complete");
  assert.ok(out.supportedVersions.includes(MODERN));
  assert.equal(typeof out.capabilities.tools, "object");
  assert.ok(Number.isInteger(out.ttlMs) && out.ttlMs >= 0, String(out.ttlMs));
  assert.ok(["public", "private"].includes(out.cacheScope), out.cacheScope);
  assert.equal(out._meta[SERVER_INFO_KEY].name, "faultline");
});

test("tools/list carries ttlMs and cacheScope, and every tool has a name, a description and an object inputSchema", async () => {
  const out = await result(await postModern(baseline, 41, "tools/list"), 41);
  assert.equal(out.resultType, "complete");
  assert.ok(Number.isInteger(out.ttlMs) && out.ttlMs >= 0, String(out.ttlMs));
  assert.ok(["public", "private"].includes(out.cacheScope), out.cacheScope);
  const names = out.tools.map((t: Json) => t.name);
  assert.ok(names.includes("echo"), names.join(", "));
  for (const tool of out.tools) {
    assert.equal(typeof tool.description, "string", tool.name);
    assert.equal(tool.inputSchema.type, "object", tool.name);
  }
});

for (const [method, params] of [
  ["server/discover", {}],
  ["tools/list", {}],
  ["tools/call", { name: "echo", arguments: { text: "x" } }],
  ["resources/list", {}],
  ["resources/templates/list", {}],
  ["prompts/list", {}],
] as const) {
  test(`the ${method} result has resultType "complete" and the server's serverInfo in _meta`, async () => {
    const out = await result(await postModern(baseline, 42, method, params), 42);
    assert.equal(out.resultType, "complete");
    assert.equal(out._meta?.[SERVER_INFO_KEY]?.name, "faultline");
  });
}

test("a tool execution error in the 2026 era is a result with resultType complete and isError true", async () => {
  const session = await createSession(server, "errors.tool_error", { tools: ["echo"] });
  const out = await result(await postModern(session.mcpUrl, 43, "tools/call", { name: "echo", arguments: { text: "x" } }), 43);
  assert.equal(out.resultType, "complete");
  assert.equal(out.isError, true);
});

test("a 2026 response mints no Mcp-Session-Id", async () => {
  const res = await postModern(baseline, 44, "tools/list");
  await res.arrayBuffer();
  assert.equal(res.headers.get("mcp-session-id"), null);
});

test("an Mcp-Session-Id header on a 2026 request is ignored", async () => {
  const res = await postModern(baseline, 45, "tools/call", { name: "echo", arguments: { text: "x" } }, { headers: { "mcp-session-id": "no-such-session" } });
  const out = await result(res, 45);
  assert.deepEqual(out.content, [{ type: "text", text: "x" }]);
});

test("a notification in the 2026 era gives 202 with an empty body", async () => {
  const res = await post(baseline, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: modernMeta() } }, modernHeaders("notifications/cancelled"));
  assert.equal(res.status, 202);
  assert.equal(await res.text(), "");
});

// ---- unknown methods and other HTTP methods ----

test("an unknown method gives 404 with -32601", async () => {
  const error = await rpcError(await postModern(baseline, 50, "tools/frobnicate"), 404, -32601, 50);
  assert.match(error.message, /tools\/frobnicate/);
});

test("ping, removed in 2026-07-28, gives 404 with -32601 in the 2026 era", async () => {
  await rpcError(await postModern(baseline, 51, "ping"), 404, -32601, 51);
});

test("an unknown tool gives -32602 (a protocol error, not a tool result)", async () => {
  const error = await rpcError(await postModern(baseline, 52, "tools/call", { name: "no_such_tool", arguments: {} }), 200, -32602, 52);
  assert.match(error.message, /no_such_tool/);
});

test("GET on the MCP endpoint gives 405", async () => {
  const res = await fetch(baseline, { headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN } });
  await res.arrayBuffer();
  assert.equal(res.status, 405);
  assert.match(res.headers.get("allow") ?? "", /POST/);
});

test("DELETE on the MCP endpoint without a legacy session gives 405", async () => {
  const res = await fetch(baseline, { method: "DELETE", headers: { "mcp-protocol-version": MODERN } });
  await res.arrayBuffer();
  assert.equal(res.status, 405);
});

// ---- the input_required round trip (MRTR) ----

const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };

async function askForApproval(mcpUrl: string, id: number, call: Json = ORDER): Promise<Json> {
  const out = await result(await postModern(mcpUrl, id, "tools/call", call, { capabilities: ELICITATION }), id);
  assert.equal(out.resultType, "input_required", JSON.stringify(out));
  return out;
}

function retry(mcpUrl: string, id: number, requestState: unknown, inputResponses: Json, call: Json = ORDER) {
  return postModern(mcpUrl, id, "tools/call", { ...call, inputResponses, requestState }, { capabilities: ELICITATION });
}

const accept = { approval: { action: "accept", content: { approved: true } } };

test("a tools/call that needs approval returns input_required with an elicitation/create request and a requestState", async () => {
  const session = await createSession(server, "elicitation.approval");
  const out = await askForApproval(session.mcpUrl, 60);
  assert.deepEqual(Object.keys(out.inputRequests), ["approval"]);
  assert.equal(out.inputRequests.approval.method, "elicitation/create");
  assert.equal(out.inputRequests.approval.params.mode, "form");
  assert.equal(out.inputRequests.approval.params.requestedSchema.type, "object");
  assert.equal(typeof out.requestState, "string");
  assert.equal(out.content, undefined, "an input_required result is not a tool result");
});

test("the retry with a new id, the inputResponses and the echoed requestState gets the tool's result", async () => {
  const session = await createSession(server, "elicitation.approval");
  const first = await askForApproval(session.mcpUrl, 61);
  const out = await result(await retry(session.mcpUrl, 62, first.requestState, accept), 62);
  assert.equal(out.resultType, "complete");
  assert.equal(out.isError, undefined);
  assert.deepEqual(out.content, [{ type: "text", text: "Order #1 placed: 2 x tea" }]);
  assert.deepEqual(out.structuredContent, { orderNumber: 1, item: "tea", quantity: 2 });
});

test("a tampered requestState gives a -32602 JSON-RPC error and runs nothing", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl, 63);
  const last = requestState.at(-1);
  const tampered = `${requestState.slice(0, -1)}${last === "A" ? "B" : "A"}`;
  const error = await rpcError(await retry(session.mcpUrl, 64, tampered, accept), 200, -32602, 64);
  assert.match(error.message, /requestState/);
  const view = (await (await fetch(`${server.url}/api/sessions/${session.id}`)).json()) as Json;
  assert.equal(view.counters["tool:orders"], undefined, "no order was placed");
});

test("a requestState whose last character differs only in base64's spare bits is refused too: only the exact string counts", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl, 68);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  // A 32-byte HMAC is 43 base64url characters; the last one carries 2 spare bits, so flipping its lowest bit
  // gives a different string that decodes to the same signature bytes.
  const sibling = alphabet[alphabet.indexOf(requestState.at(-1)) ^ 1];
  const altered = `${requestState.slice(0, -1)}${sibling}`;
  assert.notEqual(altered, requestState);
  await rpcError(await retry(session.mcpUrl, 69, altered, accept), 200, -32602, 69);
  const view = (await (await fetch(`${server.url}/api/sessions/${session.id}`)).json()) as Json;
  assert.equal(view.counters["tool:orders"], undefined, "no order was placed");
});

test("a requestState that is not in the server's format gives a -32602 JSON-RPC error", async () => {
  const session = await createSession(server, "elicitation.approval");
  await rpcError(await retry(session.mcpUrl, 65, "opaque-state-from-elsewhere", accept), 200, -32602, 65);
});

test("a requestState is bound to its params: the same state with other arguments gives a -32602 JSON-RPC error", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl, 66);
  const other = { name: "place_order", arguments: { item: "tea", quantity: 200 } };
  const error = await rpcError(await retry(session.mcpUrl, 67, requestState, accept, other), 200, -32602, 67);
  assert.match(error.message, /different params/);
});

test("a requestState from another session does not verify there", async () => {
  const one = await createSession(server, "elicitation.approval");
  const two = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(one.mcpUrl, 68);
  await rpcError(await retry(two.mcpUrl, 69, requestState, accept), 200, -32602, 69);
});

test("a decline in inputResponses gives an isError result with resultType complete", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl, 70);
  const out = await result(await retry(session.mcpUrl, 71, requestState, { approval: { action: "decline" } }), 71);
  assert.equal(out.resultType, "complete");
  assert.equal(out.isError, true);
  assert.match(out.content[0].text, /not approved \(decline\)/);
});

test("an accept whose form says approved: false gives an isError result", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl, 72);
  const out = await result(await retry(session.mcpUrl, 73, requestState, { approval: { action: "accept", content: { approved: false, reason: "too much tea" } } }), 73);
  assert.equal(out.isError, true);
  assert.match(out.content[0].text, /too much tea/);
});

test("inputResponses without the requestState are not trusted: the answer is input_required again", async () => {
  const session = await createSession(server, "elicitation.approval");
  const res = await postModern(session.mcpUrl, 74, "tools/call", { ...ORDER, inputResponses: accept }, { capabilities: ELICITATION });
  assert.equal((await result(res, 74)).resultType, "input_required");
});

test("url mode asks a client that declared elicitation.url with an elicitation/create in url mode", async () => {
  const session = await createSession(server, "elicitation.approval", { mode: "url" });
  const res = await postModern(session.mcpUrl, 75, "tools/call", ORDER, { capabilities: { elicitation: { url: {} } } });
  const out = await result(res, 75);
  assert.equal(out.resultType, "input_required");
  assert.equal(out.inputRequests.approval.params.mode, "url");
  assert.match(out.inputRequests.approval.params.url, /^https:\/\//);
});

test("url mode refuses a client whose elicitation capability is form only with 400 and -32021", async () => {
  const session = await createSession(server, "elicitation.approval", { mode: "url" });
  const res = await postModern(session.mcpUrl, 77, "tools/call", ORDER, { capabilities: ELICITATION });
  assert.equal(res.status, 400);
  const body = (await res.json()) as Json;
  assert.equal(body.id, 77);
  assert.equal(body.error.code, -32021);
  assert.deepEqual(body.error.data.requiredCapabilities, { elicitation: { url: {} } });
});

test("tools that are not listed for approval run at once, without elicitation", async () => {
  const session = await createSession(server, "elicitation.approval", { tools: ["place_order"] });
  const out = await result(await postModern(session.mcpUrl, 76, "tools/call", { name: "echo", arguments: { text: "free" } }), 76);
  assert.equal(out.resultType, "complete");
  assert.deepEqual(out.content, [{ type: "text", text: "free" }]);
});
