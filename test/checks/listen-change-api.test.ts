import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { createSession, MODERN, modernMeta, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { streamText } from "../helpers/sse.ts";
import { checksOnceJournalled } from "../helpers/checks.ts";

// tools-relisted-after-change for a 2026-07-28 client told on its subscriptions/listen stream. The journal records
// that stream once it ends, and the server ends it just before FAULTLINE_MAX_RESPONSE_SECONDS: a short deadline makes
// it end (and be judged) soon after the change, as a client that closes its stream would.

let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_MAX_RESPONSE_SECONDS: "4" });
});
after(() => server.close());

type Json = Record<string, any>;

const checksAfter = (sessionId: string, entries: number): Promise<Check[]> => checksOnceJournalled(server, sessionId, entries);

/** Opens a listen stream asking for tool list changes, changes the catalogue, and reads the stream to its end. */
async function listenThroughChange(mcpUrl: string): Promise<string> {
  const body = { jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: modernMeta() } };
  const listen = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify(body),
  });
  const stream = streamText(listen.body as ReadableStream<Uint8Array>);
  assert.ok(await stream.until("notifications/subscriptions/acknowledged"), stream.text);
  await (await postModern(mcpUrl, 2, "tools/call", { name: "trigger_tool_change", arguments: {} })).text();
  assert.ok(await stream.until("notifications/tools/list_changed"), stream.text);
  assert.ok(await stream.until('"resultType":"complete"'), stream.text);
  return stream.text;
}

async function expectCheck(sessionId: string, entries: number, status: Check["status"], message: RegExp): Promise<void> {
  const checks = await checksAfter(sessionId, entries);
  const found = checks.find((c) => c.id === "tools-relisted-after-change");
  assert.ok(found, `no tools-relisted-after-change check in ${JSON.stringify(checks, null, 1)}`);
  assert.equal(found.status, status, found.message);
  assert.match(found.message, message);
}

test("a 2026-07-28 client told on its subscriptions/listen stream that lists the tools again passes tools-relisted-after-change", async () => {
  const session = await createSession(server, "catalog.mutation");
  await (await postModern(session.mcpUrl, 1, "tools/list")).text();
  await listenThroughChange(session.mcpUrl);
  const list = (await (await postModern(session.mcpUrl, 3, "tools/list")).json()) as Json;
  assert.ok(list.result.tools.some((t: Json) => t.name === "added_tool"));
  await (await postModern(session.mcpUrl, 4, "tools/call", { name: "added_tool", arguments: {} })).text();
  await expectCheck(session.id, 5, "pass", /notifications\/tools\/list_changed \(on the stream of seq \d+\), the client listed the tools again/);
});

test("a 2026-07-28 client told on its subscriptions/listen stream that calls the retired tool fails tools-relisted-after-change", async () => {
  const session = await createSession(server, "catalog.mutation");
  await (await postModern(session.mcpUrl, 1, "tools/list")).text();
  await listenThroughChange(session.mcpUrl);
  await (await postModern(session.mcpUrl, 3, "tools/call", { name: "retiring_tool", arguments: {} })).text();
  await expectCheck(session.id, 4, "fail", /called retiring_tool, which the change retired, without listing the tools again/);
});
