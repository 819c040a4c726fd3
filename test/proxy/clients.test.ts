import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { createProxied, journalWhen } from "./helpers.ts";

// The official clients through the proxy, in both eras, on baseline and on one fault of each kind: replace (the
// upstream is not called), alter (the upstream's real answer is changed) and stream (the upstream's stream is cut).

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream();
});
after(() => upstream.close());

type Json = Record<string, any>;

interface Connected {
  listTools(): Promise<{ tools: Json[] }>;
  callTool(params: { name: string; arguments: Json }, timeoutMs?: number): Promise<Json>;
  serverName(): string | undefined;
  /** Log messages received so far. */
  logs: string[];
  close(): Promise<void>;
}

const CLIENTS: { label: string; era: "legacy" | "modern"; connect(url: string): Promise<Connected> }[] = [
  {
    label: "SDK v1 (2025-11-25)",
    era: "legacy",
    connect: async (url) => {
      const client = new ClientV1({ name: "proxy-v1", version: "0.0.0" });
      const logs: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
      await client.connect(new TransportV1(new URL(url)));
      return {
        listTools: () => client.listTools(),
        callTool: (params, timeout) => client.callTool(params, undefined, timeout ? { timeout } : {}),
        serverName: () => client.getServerVersion()?.name,
        logs,
        close: () => client.close(),
      };
    },
  },
  ...([
    ["SDK v2 (legacy mode, 2025-11-25)", "legacy", "legacy"],
    ["SDK v2 (pinned 2026-07-28)", "modern", { pin: "2026-07-28" }],
  ] as const).map(([label, era, mode]) => ({
    label,
    era,
    connect: async (url: string): Promise<Connected> => {
      const client = new ClientV2({ name: "proxy-v2", version: "0.0.0" }, { versionNegotiation: { mode } });
      const logs: string[] = [];
      client.setNotificationHandler("notifications/message", (n) => void logs.push(String(n.params.data)));
      await client.connect(new TransportV2(new URL(url)));
      assert.equal(client.getProtocolEra(), era);
      return {
        listTools: () => client.listTools(),
        callTool: (params, timeout) => client.callTool(params, timeout ? { timeout } : {}),
        serverName: () => client.getServerVersion()?.name,
        logs,
        close: () => client.close(),
      };
    },
  })),
];

async function session(scenario: string, params: Json = {}): Promise<{ id: string; mcpUrl: string }> {
  const { status, json } = await createProxied(server.url, { scenario, params, upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  return json as { id: string; mcpUrl: string };
}

const calls = (tool: string) => upstream.calls[tool] ?? 0;
const textOf = (result: Json) => (result.content as Json[]).map((c) => c.text).join("");

for (const client of CLIENTS) {
  test(`${client.label} through a baseline proxy sees the upstream's own server, tools and streamed notifications, and each call reaches it once`, async () => {
    const s = await session("baseline");
    const c = await client.connect(s.mcpUrl);
    try {
      assert.equal(c.serverName(), "proxy-test-upstream");
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["charge", "lookup", "report"]);
      assert.equal(tools.find((t) => t.name === "charge")?.annotations?.idempotentHint, false);
      const before = calls("lookup");
      assert.equal(textOf(await c.callTool({ name: "lookup", arguments: { key: "k1" } })), "record k1");
      assert.equal(calls("lookup"), before + 1);
      assert.equal(textOf(await c.callTool({ name: "report", arguments: { steps: 2 } })), "2 steps done");
      assert.deepEqual(c.logs, ["step 1 of 2", "step 2 of 2"]);
    } finally {
      await c.close();
    }
    const entries = await journalWhen(server.url, s.id, (all) => all.filter((e) => e.rpc.method === "tools/call").length === 2);
    assert.ok(entries.every((e) => e.proxied?.mode === "forward" && e.proxied.upstream === upstream.url));
    const report = entries.find((e) => e.rpc.toolName === "report")!;
    assert.equal(report.era, client.era);
    assert.match(report.response.headers["content-type"] ?? "", /text\/event-stream/);
    assert.equal(report.verdict?.outcome, "TOOL_SUCCESS");
  });

  test(`${client.label}: a replace fault (errors.jsonrpc_error) answers the call in the upstream's place, and the upstream never sees it`, async () => {
    const s = await session("errors.jsonrpc_error", { code: -32602, message: "Invalid params: injected" });
    const c = await client.connect(s.mcpUrl);
    const before = calls("charge");
    try {
      await assert.rejects(c.callTool({ name: "charge", arguments: { cents: 100 } }), /Invalid params: injected/);
      assert.equal(calls("charge"), before);
    } finally {
      await c.close();
    }
    const entries = await journalWhen(server.url, s.id, (all) => all.some((e) => e.rpc.method === "tools/call"));
    const call = entries.find((e) => e.rpc.method === "tools/call")!;
    assert.equal(call.proxied?.mode, "replace");
    assert.equal(call.proxied?.request, undefined);
    assert.equal(call.fault?.kind, "jsonrpc_error");
    assert.equal(call.effects, "none");
  });

  test(`${client.label}: an alter fault (results.content_not_array) changes the upstream's real result, which the journal keeps with its own verdict`, async () => {
    const s = await session("results.content_not_array");
    const c = await client.connect(s.mcpUrl);
    const before = calls("lookup");
    try {
      await assert.rejects(c.callTool({ name: "lookup", arguments: { key: "k2" } }));
      assert.equal(calls("lookup"), before + 1);
    } finally {
      await c.close();
    }
    const entries = await journalWhen(server.url, s.id, (all) => all.some((e) => e.rpc.method === "tools/call"));
    const call = entries.find((e) => e.rpc.method === "tools/call")!;
    assert.equal(call.proxied?.mode, "alter");
    assert.equal(call.fault?.kind, "bad_result");
    // The upstream's body as it came: one JSON message, or (the SDK's stateless 2025 fallback) an SSE stream.
    const body = call.proxied?.response?.body?.text ?? "";
    const real = JSON.parse(body.startsWith("{") ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? "null")) as Json;
    assert.deepEqual(real.result.content, [{ type: "text", text: "record k2" }]);
    assert.equal(call.proxied?.verdict?.outcome, "TOOL_SUCCESS");
    assert.notEqual(call.verdict?.outcome, "TOOL_SUCCESS");
    assert.equal(call.effects, "ran");
  });

  test(`${client.label}: a stream fault (streams.cut_before_response) passes the upstream's notifications on and cuts its stream before the result`, async () => {
    const s = await session("streams.cut_before_response");
    const c = await client.connect(s.mcpUrl);
    const before = calls("report");
    try {
      // The stream ends without the result: the client waits for it until its own timeout.
      await assert.rejects(c.callTool({ name: "report", arguments: { steps: 2 } }, 1_000));
      assert.equal(calls("report"), before + 1);
      assert.deepEqual(c.logs, ["step 1 of 2", "step 2 of 2"]);
    } finally {
      await c.close();
    }
    const entries = await journalWhen(server.url, s.id, (all) => all.some((e) => e.rpc.method === "tools/call"));
    const call = entries.find((e) => e.rpc.method === "tools/call")!;
    assert.equal(call.proxied?.mode, "alter");
    assert.equal(call.verdict?.outcome, "STREAM_INCOMPLETE");
    assert.equal(call.proxied?.verdict?.outcome, "TOOL_SUCCESS");
  });
}
