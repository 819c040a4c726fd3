import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { createSession, useServer } from "../helpers/server.ts";

// The official v1 client (@modelcontextprotocol/sdk 1.32.2: initialize at 2025-11-25) against each Test Kitchen scenario.

const server = useServer();

type Json = Record<string, any>;
type ElicitAnswer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> };

/** A v1 client that declares elicitation and answers every elicitation/create with `answer`. */
function newClient(answer: ElicitAnswer = { action: "accept", content: { approved: true } }) {
  const client = new Client({ name: "faultline-v1-test", version: "0.0.0" }, { capabilities: { elicitation: {} } });
  const asked: Json[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return answer;
  });
  return { client, asked };
}

/** Connects a new client; it is closed when the test ends. */
async function connect(t: TestContext, mcpUrl: string, answer?: ElicitAnswer) {
  const { client, asked } = newClient(answer);
  t.after(() => client.close());
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  await client.connect(transport);
  return { client, transport, sessionId: transport.sessionId ?? "", asked };
}

async function counters(sessionId: string): Promise<Record<string, number>> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}`)).json()) as Json).counters;
}

const textOf = (result: Json) => (result.content as Json[]).map((c) => c.text).join("");

// ---- baseline ----

test("v1 connects to a baseline session at 2025-11-25 and calls echo", async (t) => {
  const session = await createSession(server, "baseline");
  const c = await connect(t, session.mcpUrl);
  assert.equal(c.transport.protocolVersion, "2025-11-25");
  assert.equal(c.client.getServerVersion()?.name, "faultline");
  assert.ok(c.sessionId.length > 0, "the server minted an Mcp-Session-Id");
  const result = await c.client.callTool({ name: "echo", arguments: { text: "hello v1" } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content, [{ type: "text", text: "hello v1" }]);
});

test("v1 lists the three base tools of a baseline session", async (t) => {
  const session = await createSession(server, "baseline");
  const c = await connect(t, session.mcpUrl);
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["echo", "place_order", "run_configured_test_scenario"]);
});

// ---- errors.http_status_sequence ----

test("errors.http_status_sequence: v1 connect throws StreamableHTTPError with code 503, and an explicit second connect succeeds", async (t) => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  const first = newClient();
  await assert.rejects(first.client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl))), (error: unknown) => {
    assert.ok(error instanceof StreamableHTTPError, String(error));
    assert.equal(error.constructor.name, "StreamableHTTPError");
    assert.equal(error.code, 503);
    assert.match(error.message, /^Streamable HTTP error: Error POSTing to endpoint/);
    return true;
  });
  await first.client.close();

  const c = await connect(t, session.mcpUrl);
  const result = await c.client.callTool({ name: "echo", arguments: { text: "second attempt" } });
  assert.equal(textOf(result), "second attempt");
});

test("errors.http_status_sequence on tools/call: v1 callTool throws StreamableHTTPError 503 with no retry, and a second callTool succeeds", async (t) => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"], retryAfter: 1 });
  const c = await connect(t, session.mcpUrl);
  await assert.rejects(c.client.callTool({ name: "echo", arguments: { text: "x" } }), (error: unknown) => {
    assert.ok(error instanceof StreamableHTTPError, String(error));
    assert.equal(error.code, 503);
    return true;
  });
  assert.equal((await counters(session.id))["method:tools/call"], 1, "the client did not retry on its own, Retry-After notwithstanding");
  const result = await c.client.callTool({ name: "echo", arguments: { text: "retried by hand" } });
  assert.equal(textOf(result), "retried by hand");
});

// ---- errors.jsonrpc_error ----

test("errors.jsonrpc_error: v1 callTool throws McpError with code -32602, and the next call succeeds", async (t) => {
  const session = await createSession(server, "errors.jsonrpc_error");
  const c = await connect(t, session.mcpUrl);
  await assert.rejects(c.client.callTool({ name: "echo", arguments: { text: "x" } }), (error: unknown) => {
    assert.ok(error instanceof McpError, String(error));
    assert.equal(error.constructor.name, "McpError");
    assert.equal(error.code, -32602);
    assert.equal(error.message, "MCP error -32602: Invalid params (injected by Faultline)");
    return true;
  });
  assert.equal(textOf(await c.client.callTool({ name: "echo", arguments: { text: "ok now" } })), "ok now");
});

test("errors.jsonrpc_error with data: v1 McpError carries the error's data", async (t) => {
  const session = await createSession(server, "errors.jsonrpc_error", { code: -32603, message: "Internal", data: { hint: "injected" } });
  const c = await connect(t, session.mcpUrl);
  await assert.rejects(c.client.callTool({ name: "echo", arguments: { text: "x" } }), (error: unknown) => {
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32603);
    assert.deepEqual(error.data, { hint: "injected" });
    return true;
  });
});

// ---- errors.tool_error ----

test("errors.tool_error: v1 callTool returns the isError result without throwing, and the next run succeeds", async (t) => {
  const session = await createSession(server, "errors.tool_error");
  const c = await connect(t, session.mcpUrl);
  const failed = await c.client.callTool({ name: "run_configured_test_scenario", arguments: {} });
  assert.equal(failed.isError, true);
  assert.equal(textOf(failed), "The tool failed: upstream inventory service is unavailable (injected by Faultline).");
  const next = await c.client.callTool({ name: "run_configured_test_scenario", arguments: {} });
  assert.equal(next.isError, undefined);
  assert.equal(textOf(next), "Scenario errors.tool_error ran successfully (run 1).");
});

// ---- elicitation.approval (legacy: a real elicitation/create answered by the client's request handler) ----

test("elicitation.approval: v1 answers the server's elicitation/create through its request handler, and accept places the order", async (t) => {
  const session = await createSession(server, "elicitation.approval");
  const c = await connect(t, session.mcpUrl, { action: "accept", content: { approved: true } });
  const result = await c.client.callTool({ name: "place_order", arguments: { item: "tea", quantity: 2 } });
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), "Order #1 placed: 2 x tea");
  assert.equal(c.asked.length, 1);
  assert.equal(c.asked[0]?.message, "Approve the call to place_order?");
  assert.equal((await counters(session.id))["method:tools/call"], 1, "one POST: the answer travels on its own POST as a JSON-RPC response");
});

test("elicitation.approval: when v1's handler declines, callTool returns an isError result", async (t) => {
  const session = await createSession(server, "elicitation.approval");
  const c = await connect(t, session.mcpUrl, { action: "decline" });
  const result = await c.client.callTool({ name: "place_order", arguments: { item: "tea", quantity: 2 } });
  assert.equal(result.isError, true);
  assert.equal(textOf(result), "The call to place_order was not approved (decline).");
});

test("elicitation.approval: a v1 client without the elicitation capability gets McpError -32600 naming the capability, not a hang", async () => {
  const session = await createSession(server, "elicitation.approval");
  const client = new Client({ name: "faultline-v1-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  try {
    await assert.rejects(client.callTool({ name: "place_order", arguments: { item: "tea", quantity: 2 } }), (error: unknown) => {
      assert.ok(error instanceof McpError, String(error));
      assert.equal(error.code, -32600);
      assert.match(error.message, /Missing required client capability: place_order needs elicitation/);
      assert.deepEqual((error.data as Record<string, unknown>).requiredCapabilities, { elicitation: {} });
      return true;
    });
  } finally {
    await client.close();
  }
});

// ---- compat.sdk_v2 ----

test("compat.sdk_v2: v1 is served in the legacy era at 2025-11-25", async (t) => {
  const session = await createSession(server, "compat.sdk_v2");
  const c = await connect(t, session.mcpUrl);
  const result = await c.client.callTool({ name: "show_negotiated_mcp_protocol", arguments: {} });
  assert.equal(textOf(result), "era=legacy protocolVersion=2025-11-25");
  assert.deepEqual(result.structuredContent, { era: "legacy", protocolVersion: "2025-11-25", clientCapabilities: ["elicitation"] });
});

test("compat.sdk_v2: v1 sends no Mcp-Param-Region header, which the legacy era does not require", async (t) => {
  const session = await createSession(server, "compat.sdk_v2");
  const c = await connect(t, session.mcpUrl);
  const result = await c.client.callTool({ name: "verify_order_region_param_header", arguments: { region: "eu-west" } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, { era: "legacy", region: "eu-west", header: null, matched: false, headerRequired: false });
});

test("compat.sdk_v2: v1 confirms the ticket close through its elicitation handler and the ticket is closed", async (t) => {
  const session = await createSession(server, "compat.sdk_v2");
  const c = await connect(t, session.mcpUrl, { action: "accept", content: { confirm: true } });
  const result = await c.client.callTool({ name: "simulate_ticket_close_mrtr", arguments: {} });
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), "Ticket TCK-1001 closed.");
  assert.equal(c.asked[0]?.message, "Close ticket TCK-1001?");
});

test("compat.sdk_v2: when v1's handler declines the ticket close, callTool returns an isError result", async (t) => {
  const session = await createSession(server, "compat.sdk_v2");
  const c = await connect(t, session.mcpUrl, { action: "decline" });
  const result = await c.client.callTool({ name: "simulate_ticket_close_mrtr", arguments: {} });
  assert.equal(result.isError, true);
  assert.equal(textOf(result), "Ticket TCK-1001 was not closed (decline).");
});
