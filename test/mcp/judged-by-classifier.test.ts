import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { classify, type Exchange, type Verdict } from "../../src/classify/index.ts";
import { createSession, MODERN, modernMeta, startServer, type TestServer } from "../helpers/server.ts";
import { sseMessages } from "../helpers/sse.ts";

// Faultline's own classifier judges the server: raw responses from each scenario, in both eras, must be
// classified as the fault the scenario meant to inject, and a correct answer must draw no error finding.

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

type Json = Record<string, any>;
const LEGACY = "2025-11-25";
const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** POSTs `body` and returns the exchange exactly as it went over the wire. */
async function capture(mcpUrl: string, headers: Record<string, string>, body: unknown): Promise<Exchange> {
  const requestHeaders = { ...BASE_HEADERS, ...headers };
  const requestBody = JSON.stringify(body);
  const res = await fetch(mcpUrl, { method: "POST", headers: requestHeaders, body: requestBody });
  return {
    request: { headers: requestHeaders, body: requestBody },
    response: { status: res.status, headers: headersOf(res), body: await res.text() },
  };
}

/** Classifies an exchange and checks that the verdict is free of error findings. */
function judge(exchange: Exchange): Verdict {
  const verdict = classify(exchange);
  const errors = verdict.findings.filter((f) => f.severity === "error");
  assert.deepEqual(errors, [], `error findings on ${exchange.response.status} ${String(exchange.response.body).slice(0, 300)}`);
  return verdict;
}

const bodyOf = (exchange: Exchange) => JSON.parse(String(exchange.response.body)) as Json;

// ---- 2026-07-28 ----

function modernCall(id: number, name: string, args: Json, extra: Json = {}, capabilities: Json = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...extra, _meta: modernMeta(capabilities) } };
}

const modernHeaders = (name: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name });

function callModern(mcpUrl: string, id: number, name: string, args: Json, extra: Json = {}, capabilities: Json = {}) {
  return capture(mcpUrl, modernHeaders(name), modernCall(id, name, args, extra, capabilities));
}

test("2026-07-28 baseline: an echo call is judged TOOL_SUCCESS at 2026-07-28", async () => {
  const session = await createSession(server, "baseline");
  const verdict = judge(await callModern(session.mcpUrl, 1, "echo", { text: "hi" }));
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.layer, "application");
  assert.equal(verdict.protocolVersion, MODERN);
  assert.equal(verdict.retry.decision, "none");
  assert.deepEqual(verdict.findings, []);
});

test("2026-07-28 errors.http_status_sequence: the first call is judged HTTP_ERROR 503 with its Retry-After, the second TOOL_SUCCESS", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], retryAfter: 2 });
  const first = judge(await callModern(session.mcpUrl, 1, "echo", { text: "hi" }));
  assert.equal(first.outcome, "HTTP_ERROR");
  assert.equal(first.layer, "transport");
  assert.equal(first.status, 503);
  assert.equal(first.retry.decision, "conditional");
  assert.equal(first.retry.afterMs, 2000);
  const second = judge(await callModern(session.mcpUrl, 2, "echo", { text: "hi" }));
  assert.equal(second.outcome, "TOOL_SUCCESS");
});

test("2026-07-28 errors.jsonrpc_error: the call is judged JSONRPC_ERROR -32602", async () => {
  const session = await createSession(server, "errors.jsonrpc_error");
  const verdict = judge(await callModern(session.mcpUrl, 1, "echo", { text: "hi" }));
  assert.equal(verdict.outcome, "JSONRPC_ERROR");
  assert.equal(verdict.layer, "protocol");
  assert.equal(verdict.code, -32602);
  assert.equal(verdict.retry.decision, "fix-input");
});

test("2026-07-28 errors.tool_error: the run is judged TOOL_ERROR", async () => {
  const session = await createSession(server, "errors.tool_error");
  const verdict = judge(await callModern(session.mcpUrl, 1, "run_configured_test_scenario", {}));
  assert.equal(verdict.outcome, "TOOL_ERROR");
  assert.equal(verdict.layer, "application");
  assert.equal(verdict.retry.decision, "tool-semantics");
});

test("2026-07-28 elicitation.approval: the call is judged INPUT_REQUIRED for approval, and the retry TOOL_SUCCESS", async () => {
  const session = await createSession(server, "elicitation.approval");
  const order = { item: "tea", quantity: 2 };
  const first = await callModern(session.mcpUrl, 1, "place_order", order, {}, { elicitation: {} });
  const asked = judge(first);
  assert.equal(asked.outcome, "INPUT_REQUIRED");
  assert.equal(asked.layer, "interaction");
  assert.equal(asked.retry.decision, "follow-up");
  assert.deepEqual(asked.retry.inputKeys, ["approval"]);

  const extra = { inputResponses: { approval: { action: "accept", content: { approved: true } } }, requestState: bodyOf(first).result.requestState };
  const done = judge(await callModern(session.mcpUrl, 2, "place_order", order, extra, { elicitation: {} }));
  assert.equal(done.outcome, "TOOL_SUCCESS");
});

test("2026-07-28 elicitation.approval: a declined approval is judged TOOL_ERROR", async () => {
  const session = await createSession(server, "elicitation.approval");
  const order = { item: "tea", quantity: 2 };
  const first = await callModern(session.mcpUrl, 1, "place_order", order, {}, { elicitation: {} });
  const extra = { inputResponses: { approval: { action: "decline" } }, requestState: bodyOf(first).result.requestState };
  assert.equal(judge(await callModern(session.mcpUrl, 2, "place_order", order, extra, { elicitation: {} })).outcome, "TOOL_ERROR");
});

test("2026-07-28 compat.sdk_v2: the ticket close is judged INPUT_REQUIRED for confirm, and the retry TOOL_SUCCESS", async () => {
  const session = await createSession(server, "compat.sdk_v2");
  const first = await callModern(session.mcpUrl, 1, "simulate_ticket_close_mrtr", {}, {}, { elicitation: {} });
  const asked = judge(first);
  assert.equal(asked.outcome, "INPUT_REQUIRED");
  assert.deepEqual(asked.retry.inputKeys, ["confirm"]);
  const extra = { inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: bodyOf(first).result.requestState };
  assert.equal(judge(await callModern(session.mcpUrl, 2, "simulate_ticket_close_mrtr", {}, extra, { elicitation: {} })).outcome, "TOOL_SUCCESS");
});

test("2026-07-28 compat.sdk_v2: show_negotiated_mcp_protocol is judged TOOL_SUCCESS", async () => {
  const session = await createSession(server, "compat.sdk_v2");
  const verdict = judge(await callModern(session.mcpUrl, 1, "show_negotiated_mcp_protocol", {}));
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
});

test("2026-07-28 compat.sdk_v2: a call whose Mcp-Param-Region matches its region argument is judged TOOL_SUCCESS", async () => {
  const session = await createSession(server, "compat.sdk_v2");
  const exchange = await capture(
    session.mcpUrl,
    { ...modernHeaders("verify_order_region_param_header"), "mcp-param-region": "eu-west" },
    modernCall(1, "verify_order_region_param_header", { region: "eu-west" }),
  );
  assert.equal(judge(exchange).outcome, "TOOL_SUCCESS");
});

// A JSON-RPC error on HTTP 400 is judged at the transport layer, with the JSON-RPC code carried along.
test("2026-07-28: the server's own header mismatch is judged HTTP_ERROR 400 with code -32020, to be fixed before a resend", async () => {
  const session = await createSession(server, "baseline");
  const exchange = await capture(session.mcpUrl, modernHeaders("place_order"), modernCall(1, "echo", { text: "hi" }));
  assert.equal(exchange.response.status, 400);
  const verdict = judge(exchange);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.status, 400);
  assert.equal(verdict.code, -32020);
  assert.equal(verdict.retry.decision, "fix-input");
});

test("2026-07-28: the server's own unsupported-version error is judged HTTP_ERROR 400 with code -32022 and the supported versions", async () => {
  const session = await createSession(server, "baseline");
  const body = modernCall(1, "echo", { text: "hi" });
  body.params._meta["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
  const exchange = await capture(session.mcpUrl, { ...modernHeaders("echo"), "mcp-protocol-version": "1900-01-01" }, body);
  assert.equal(exchange.response.status, 400);
  const verdict = judge(exchange);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.status, 400);
  assert.equal(verdict.code, -32022);
  assert.equal(verdict.retry.decision, "renegotiate");
  assert.ok(verdict.retry.supportedVersions?.includes(MODERN), JSON.stringify(verdict.retry));
});

// ---- 2025-11-25 ----

/** Runs the handshake with raw fetch and returns both of its exchanges and a caller bound to the session. */
async function legacyHandshake(mcpUrl: string, capabilities: Json = {}) {
  const initialize = await capture(mcpUrl, {}, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: "judged-test", version: "0.0.0" } },
  });
  const sessionId = (initialize.response.headers as Record<string, string>)["mcp-session-id"] ?? "";
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
  const initialized = await capture(mcpUrl, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
  const call = (id: number, name: string, args: Json) => capture(mcpUrl, headers, { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  return { initialize, initialized, headers, call };
}

/**
 * Calls a tool whose answer needs a legacy elicitation: reads the SSE stream, answers the elicitation/create
 * with `answer` on its own POST, and returns the whole stream as one exchange.
 */
async function callAnsweringElicitation(mcpUrl: string, name: string, args: Json, answer: Json): Promise<Exchange> {
  const { headers } = await legacyHandshake(mcpUrl, { elicitation: {} });
  const requestHeaders = { ...BASE_HEADERS, ...headers };
  const requestBody = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });
  const res = await fetch(mcpUrl, { method: "POST", headers: requestHeaders, body: requestBody });
  assert.ok(res.body);
  let raw = "";
  for await (const message of sseMessages(res.body, (text) => (raw += text))) {
    if (message.method === "elicitation/create") {
      const reply = await fetch(mcpUrl, { method: "POST", headers: requestHeaders, body: JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer }) });
      assert.equal(reply.status, 202);
    }
  }
  return { request: { headers: requestHeaders, body: requestBody }, response: { status: res.status, headers: headersOf(res), body: raw } };
}

test("2025-11-25 handshake: initialize is judged a success at 2025-11-25, and notifications/initialized NOTIFICATION_ACCEPTED", async () => {
  const session = await createSession(server, "baseline");
  const { initialize, initialized } = await legacyHandshake(session.mcpUrl);
  const init = judge(initialize);
  assert.equal(init.outcome, "TOOL_SUCCESS");
  assert.equal(init.protocolVersion, LEGACY);
  assert.equal(judge(initialized).outcome, "NOTIFICATION_ACCEPTED");
});

test("2025-11-25 baseline: an echo call is judged TOOL_SUCCESS at 2025-11-25", async () => {
  const session = await createSession(server, "baseline");
  const { call } = await legacyHandshake(session.mcpUrl);
  const verdict = judge(await call(1, "echo", { text: "hi" }));
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.protocolVersion, LEGACY);
  assert.deepEqual(verdict.findings, []);
});

test("2025-06-18 baseline: an echo call is judged TOOL_SUCCESS at 2025-06-18", async () => {
  const session = await createSession(server, "baseline");
  const init = await capture(session.mcpUrl, {}, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "judged-test", version: "0.0.0" } },
  });
  const headers = { "mcp-session-id": (init.response.headers as Record<string, string>)["mcp-session-id"] ?? "", "mcp-protocol-version": "2025-06-18" };
  const verdict = judge(await capture(session.mcpUrl, headers, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }));
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.protocolVersion, "2025-06-18");
});

test("2025-11-25 errors.http_status_sequence: an initialize that gets 503 is judged HTTP_ERROR 503", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  const { initialize } = await legacyHandshake(session.mcpUrl);
  const verdict = judge(initialize);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.status, 503);
});

test("2025-11-25 errors.http_status_sequence on tools/call: the first call is judged HTTP_ERROR 503, the second TOOL_SUCCESS", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"] });
  const { call } = await legacyHandshake(session.mcpUrl);
  const first = judge(await call(1, "echo", { text: "hi" }));
  assert.equal(first.outcome, "HTTP_ERROR");
  assert.equal(first.status, 503);
  assert.equal(judge(await call(2, "echo", { text: "hi" })).outcome, "TOOL_SUCCESS");
});

test("2025-11-25 errors.jsonrpc_error: the call is judged JSONRPC_ERROR -32602", async () => {
  const session = await createSession(server, "errors.jsonrpc_error");
  const { call } = await legacyHandshake(session.mcpUrl);
  const verdict = judge(await call(1, "echo", { text: "hi" }));
  assert.equal(verdict.outcome, "JSONRPC_ERROR");
  assert.equal(verdict.code, -32602);
});

test("2025-11-25 errors.tool_error: the run is judged TOOL_ERROR", async () => {
  const session = await createSession(server, "errors.tool_error");
  const { call } = await legacyHandshake(session.mcpUrl);
  assert.equal(judge(await call(1, "run_configured_test_scenario", {})).outcome, "TOOL_ERROR");
});

test("2025-11-25 elicitation.approval: the SSE stream with the elicitation/create and, after accept, the result is judged TOOL_SUCCESS", async () => {
  const session = await createSession(server, "elicitation.approval");
  const exchange = await callAnsweringElicitation(session.mcpUrl, "place_order", { item: "tea", quantity: 2 }, { action: "accept", content: { approved: true } });
  const verdict = judge(exchange);
  assert.equal(verdict.outcome, "TOOL_SUCCESS");
  assert.equal(verdict.transport, "sse");
  assert.deepEqual(
    verdict.findings.map((f) => f.code),
    ["SSE_SERVER_REQUEST"],
  );
});

test("2025-11-25 elicitation.approval: the stream after a decline is judged TOOL_ERROR", async () => {
  const session = await createSession(server, "elicitation.approval");
  const exchange = await callAnsweringElicitation(session.mcpUrl, "place_order", { item: "tea", quantity: 2 }, { action: "decline" });
  assert.equal(judge(exchange).outcome, "TOOL_ERROR");
});

test("2025-11-25 compat.sdk_v2: the ticket close stream, confirmed, is judged TOOL_SUCCESS", async () => {
  const session = await createSession(server, "compat.sdk_v2");
  const exchange = await callAnsweringElicitation(session.mcpUrl, "simulate_ticket_close_mrtr", {}, { action: "accept", content: { confirm: true } });
  assert.equal(judge(exchange).outcome, "TOOL_SUCCESS");
});

test("2025-11-25 compat.sdk_v2: show_negotiated_mcp_protocol is judged TOOL_SUCCESS", async () => {
  const session = await createSession(server, "compat.sdk_v2");
  const { call } = await legacyHandshake(session.mcpUrl);
  assert.equal(judge(await call(1, "show_negotiated_mcp_protocol", {})).outcome, "TOOL_SUCCESS");
});
