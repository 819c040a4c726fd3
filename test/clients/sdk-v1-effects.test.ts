import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Check } from "../../src/checks/index.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, useServer } from "../helpers/server.ts";

// The official v1 client (@modelcontextprotocol/sdk, 2025-11-25) whose legacy session expires: the 404'd place_order
// never ran, the application re-initializes and sends it once more, and the checks agree that this was right.

const server = useServer();

type Json = Record<string, any>;

async function connect(mcpUrl: string): Promise<Client> {
  const client = new Client({ name: "faultline-v1-effects", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

const journal = (sessionId: string, count: number) => journalOf(server.url, sessionId, count);

test("v1 re-initializing after session.expire_after and sending place_order again passes both session-reinitialized and non-idempotent-not-replayed", async () => {
  // Each MCP session ends after two requests (notifications/initialized is the first).
  const session = await createSession(server, "session.expire_after", { requests: 2 });
  const args = { name: "place_order", arguments: { item: "widget", quantity: 1 } };
  const first = await connect(session.mcpUrl);
  await first.ping();
  await assert.rejects(first.callTool(args), /404|Session not found/);
  await first.close();
  // What mcp-remote and the 2025-11-25 transport ask for: a new initialize, then the call once more.
  const second = await connect(session.mcpUrl);
  const result = (await second.callTool(args)) as Json;
  await second.close();
  // The 404'd request never ran: this is the first order.
  assert.equal(result.structuredContent.orderNumber, 1);

  // initialize + initialized twice, the ping, the 404 and the resend (DELETEs from close() may follow).
  const entries = await journal(session.id, 7);
  const [gone, resent] = entries.filter((e) => e.rpc.method === "tools/call");
  assert.equal(gone?.response.status, 404);
  assert.equal(gone?.effects, "none");
  assert.equal(resent?.effects, "ran");
  // A new session: the wire cannot tell who sent it again.
  assert.deepEqual([resent?.retryOf, resent?.retryOrigin], [gone?.seq, "unknown"]);

  const checks = ((await (await fetch(`${server.url}/api/sessions/${session.id}/checks`)).json()) as { checks: Check[] }).checks;
  const status = Object.fromEntries(checks.map((c) => [c.id, c.status]));
  assert.equal(status["session-reinitialized"], "pass", JSON.stringify(checks));
  assert.equal(status["non-idempotent-not-replayed"], "pass", JSON.stringify(checks));
  assert.deepEqual(checks.filter((c) => c.status === "fail"), []);
});
