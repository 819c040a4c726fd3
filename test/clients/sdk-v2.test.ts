import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import {
  Client,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";

// The official v2 client (@modelcontextprotocol/client 2.4.0) in its three negotiation modes against each Test Kitchen scenario.

const server = useServer();

type Json = Record<string, any>;
type ElicitAnswer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> };

interface Mode {
  label: string;
  mode: VersionNegotiationMode;
  /** The era the client ends up in against Faultline, which offers 2026-07-28 through server/discover. */
  era: "legacy" | "modern";
  protocolVersion: string;
  /** The SdkHttpError code when the very first POST (initialize, or the server/discover probe) gets a 503. */
  connectErrorCode: string;
  /** POSTs per tools/call that asks for input: legacy answers on its own POST as a JSON-RPC response; modern retries the call. */
  callsPerApproval: number;
}

const MODES: Mode[] = [
  { label: "legacy", mode: "legacy", era: "legacy", protocolVersion: "2025-11-25", connectErrorCode: "CLIENT_HTTP_NOT_IMPLEMENTED", callsPerApproval: 1 },
  { label: "auto", mode: "auto", era: "modern", protocolVersion: "2026-07-28", connectErrorCode: "ERA_NEGOTIATION_FAILED", callsPerApproval: 2 },
  { label: "pinned 2026-07-28", mode: { pin: "2026-07-28" }, era: "modern", protocolVersion: "2026-07-28", connectErrorCode: "ERA_NEGOTIATION_FAILED", callsPerApproval: 2 },
];

/** A v2 client in `mode`; with `answer` it declares elicitation and answers every elicitation/create with it. */
function newClient(mode: Mode, answer?: ElicitAnswer) {
  const client = new Client(
    { name: "faultline-v2-test", version: "0.0.0" },
    { capabilities: answer ? { elicitation: {} } : {}, versionNegotiation: { mode: mode.mode } },
  );
  const asked: Json[] = [];
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return answer;
    });
  }
  return { client, asked };
}

/** Connects a new client; it is closed when the test ends. */
async function connect(t: TestContext, mode: Mode, mcpUrl: string, answer?: ElicitAnswer) {
  const { client, asked } = newClient(mode, answer);
  t.after(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return { client, asked };
}

async function counters(sessionId: string): Promise<Record<string, number>> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}`)).json()) as Json).counters;
}

const textOf = (result: Json) => (result.content as Json[]).map((c) => c.text).join("");
const ACCEPT_ORDER: ElicitAnswer = { action: "accept", content: { approved: true } };
const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };

for (const mode of MODES) {
  // ---- baseline ----

  test(`v2 ${mode.label}: connects to a baseline session in the ${mode.era} era at ${mode.protocolVersion} and calls echo`, async (t) => {
    const session = await createSession(server, "baseline");
    const { client } = await connect(t, mode, session.mcpUrl);
    assert.equal(client.getProtocolEra(), mode.era);
    assert.equal(client.getNegotiatedProtocolVersion(), mode.protocolVersion);
    assert.equal(client.getServerVersion()?.name, "faultline");
    const result = await client.callTool({ name: "echo", arguments: { text: `hello ${mode.label}` } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, [{ type: "text", text: `hello ${mode.label}` }]);
    const seen = await counters(session.id);
    if (mode.era === "modern") {
      assert.equal(seen["method:server/discover"], 1, "the modern client discovered the server");
      assert.equal(seen["method:initialize"], undefined, "and sent no initialize");
    } else {
      assert.equal(seen["method:initialize"], 1);
      assert.equal(seen["method:server/discover"], undefined, "legacy mode sends no probe");
    }
  });

  // ---- errors.http_status_sequence ----

  test(`errors.http_status_sequence: v2 ${mode.label} connect throws SdkHttpError ${mode.connectErrorCode} with status 503, and an explicit second connect succeeds`, async (t) => {
    const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
    const first = newClient(mode);
    t.after(() => first.client.close());
    await assert.rejects(first.client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl))), (error: unknown) => {
      assert.ok(error instanceof SdkHttpError, String(error));
      assert.equal(error.constructor.name, "SdkHttpError");
      assert.equal(error.code, mode.connectErrorCode);
      assert.equal((error.data as Json).status, 503);
      return true;
    });

    const { client } = await connect(t, mode, session.mcpUrl);
    assert.equal(client.getProtocolEra(), mode.era);
    assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text: "second attempt" } })), "second attempt");
  });

  test(`errors.http_status_sequence on tools/call: v2 ${mode.label} callTool throws SdkHttpError CLIENT_HTTP_NOT_IMPLEMENTED with status 503 and no retry, and a second callTool succeeds`, async (t) => {
    const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"], retryAfter: 1 });
    const { client } = await connect(t, mode, session.mcpUrl);
    await assert.rejects(client.callTool({ name: "echo", arguments: { text: "x" } }), (error: unknown) => {
      assert.ok(error instanceof SdkHttpError, String(error));
      assert.equal(error.code, "CLIENT_HTTP_NOT_IMPLEMENTED");
      assert.equal((error.data as Json).status, 503);
      return true;
    });
    assert.equal((await counters(session.id))["method:tools/call"], 1, "the client did not retry on its own, Retry-After notwithstanding");
    assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text: "retried by hand" } })), "retried by hand");
  });

  // ---- errors.jsonrpc_error ----

  test(`errors.jsonrpc_error: v2 ${mode.label} callTool throws ProtocolError with code -32602, and the next call succeeds`, async (t) => {
    const session = await createSession(server, "errors.jsonrpc_error");
    const { client } = await connect(t, mode, session.mcpUrl);
    await assert.rejects(client.callTool({ name: "echo", arguments: { text: "x" } }), (error: unknown) => {
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.constructor.name, "ProtocolError");
      assert.equal(error.code, -32602);
      assert.equal(error.message, "Invalid params (injected by Faultline)");
      return true;
    });
    assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text: "ok now" } })), "ok now");
  });

  // ---- errors.tool_error ----

  test(`errors.tool_error: v2 ${mode.label} callTool returns the isError result without throwing, and the next run succeeds`, async (t) => {
    const session = await createSession(server, "errors.tool_error");
    const { client } = await connect(t, mode, session.mcpUrl);
    const failed = await client.callTool({ name: "run_configured_test_scenario", arguments: {} });
    assert.equal(failed.isError, true);
    assert.equal(textOf(failed), "The tool failed: upstream inventory service is unavailable (injected by Faultline).");
    const next = await client.callTool({ name: "run_configured_test_scenario", arguments: {} });
    assert.equal(next.isError, undefined);
    assert.equal(textOf(next), "Scenario errors.tool_error ran successfully (run 1).");
  });

  // ---- elicitation.approval ----

  const how = mode.era === "modern" ? "makes the input_required round trip automatically" : "answers the server's elicitation/create";
  test(`elicitation.approval: v2 ${mode.label} ${how} through its elicitation handler, and accept places the order`, async (t) => {
    const session = await createSession(server, "elicitation.approval");
    const { client, asked } = await connect(t, mode, session.mcpUrl, ACCEPT_ORDER);
    const result = await client.callTool(ORDER);
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), "Order #1 placed: 2 x tea");
    assert.deepEqual(result.structuredContent, { orderNumber: 1, item: "tea", quantity: 2 });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.message, "Approve the call to place_order?");
    assert.equal((await counters(session.id))["method:tools/call"], mode.callsPerApproval);
  });

  test(`elicitation.approval: when the v2 ${mode.label} handler declines, callTool returns an isError result`, async (t) => {
    const session = await createSession(server, "elicitation.approval");
    const { client } = await connect(t, mode, session.mcpUrl, { action: "decline" });
    const result = await client.callTool(ORDER);
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "The call to place_order was not approved (decline).");
  });

  if (mode.era === "modern") {
    test(`elicitation.approval: a v2 ${mode.label} client without the elicitation capability gets MissingRequiredClientCapabilityError -32021`, async (t) => {
      const session = await createSession(server, "elicitation.approval");
      const { client } = await connect(t, mode, session.mcpUrl);
      await assert.rejects(client.callTool(ORDER), (error: unknown) => {
        assert.ok(error instanceof MissingRequiredClientCapabilityError, String(error));
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, -32021);
        assert.deepEqual((error.data as Json).requiredCapabilities, { elicitation: {} });
        return true;
      });
    });
  } else {
    test(`elicitation.approval: a v2 ${mode.label} client without the elicitation capability is asked nothing and gets -32600 naming the capability`, async (t) => {
      const session = await createSession(server, "elicitation.approval");
      const { client } = await connect(t, mode, session.mcpUrl);
      await assert.rejects(client.callTool(ORDER), (error: unknown) => {
        assert.ok(error instanceof ProtocolError, String(error));
        assert.equal(error.code, -32600);
        assert.match(error.message, /Missing required client capability: place_order needs elicitation/);
        assert.deepEqual((error.data as Json).requiredCapabilities, { elicitation: {} });
        return true;
      });
    });
  }

  // ---- compat.sdk_v2 ----

  test(`compat.sdk_v2: v2 ${mode.label} is served in the ${mode.era} era at ${mode.protocolVersion}`, async (t) => {
    const session = await createSession(server, "compat.sdk_v2");
    const { client } = await connect(t, mode, session.mcpUrl, ACCEPT_ORDER);
    const result = await client.callTool({ name: "show_negotiated_mcp_protocol", arguments: {} });
    assert.equal(textOf(result), `era=${mode.era} protocolVersion=${mode.protocolVersion}`);
    assert.deepEqual(result.structuredContent, { era: mode.era, protocolVersion: mode.protocolVersion, clientCapabilities: ["elicitation"] });
  });

  if (mode.era === "modern") {
    test(`compat.sdk_v2: v2 ${mode.label} mirrors the x-mcp-header argument in Mcp-Param-Region, and it matches`, async (t) => {
      const session = await createSession(server, "compat.sdk_v2");
      const { client } = await connect(t, mode, session.mcpUrl);
      const result = await client.callTool({ name: "verify_order_region_param_header", arguments: { region: "eu-west" } });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { era: "modern", region: "eu-west", header: "eu-west", matched: true, headerRequired: true });
    });
  } else {
    test(`compat.sdk_v2: v2 ${mode.label} sends no Mcp-Param-Region header, which the legacy era does not require`, async (t) => {
      const session = await createSession(server, "compat.sdk_v2");
      const { client } = await connect(t, mode, session.mcpUrl);
      const result = await client.callTool({ name: "verify_order_region_param_header", arguments: { region: "eu-west" } });
      assert.deepEqual(result.structuredContent, { era: "legacy", region: "eu-west", header: null, matched: false, headerRequired: false });
    });
  }

  test(`compat.sdk_v2: v2 ${mode.label} confirms the ticket close through its elicitation handler and the ticket is closed`, async (t) => {
    const session = await createSession(server, "compat.sdk_v2");
    const { client, asked } = await connect(t, mode, session.mcpUrl, { action: "accept", content: { confirm: true } });
    const result = await client.callTool({ name: "simulate_ticket_close_mrtr", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), "Ticket TCK-1001 closed.");
    assert.deepEqual(result.structuredContent, { ticketId: "TCK-1001", closed: true, alreadyClosed: false });
    assert.equal(asked[0]?.message, "Close ticket TCK-1001?");
    assert.equal((await counters(session.id))["method:tools/call"], mode.callsPerApproval);
  });

  test(`compat.sdk_v2: when the v2 ${mode.label} handler declines the ticket close, callTool returns an isError result`, async (t) => {
    const session = await createSession(server, "compat.sdk_v2");
    const { client } = await connect(t, mode, session.mcpUrl, { action: "decline" });
    const result = await client.callTool({ name: "simulate_ticket_close_mrtr", arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "Ticket TCK-1001 was not closed (decline).");
  });
}
