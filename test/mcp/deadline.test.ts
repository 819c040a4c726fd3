import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSession, modernMeta, MODERN, postModern, startServer, type TestServer } from "../helpers/server.ts";

// FAULTLINE_MAX_RESPONSE_SECONDS: every MCP response ends within it, whatever the fault asked for; the journal marks
// a response the deadline cut. This server's deadline is 1 s, far below every fault's length here.

let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_MAX_RESPONSE_SECONDS: "1" });
});
after(() => server?.close());

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The session's journal once it holds `count` entries (an exchange is journalled after its body ended). */
async function journal(id: string, count: number): Promise<Json[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const entries = ((await (await fetch(`${server.url}/api/sessions/${id}/journal?limit=100&order=asc`)).json()) as { entries: Json[] }).entries;
    if (entries.length >= count) return entries;
    await sleep(50);
  }
  throw new Error(`the journal of ${id} never reached ${count} entries`);
}

const echo = (mcpUrl: string) => postModern(mcpUrl, 1, "tools/call", { name: "echo", arguments: { text: "hello" } });

test("a hang of ten minutes is closed at the deadline, with a comment saying why, and journalled as cut", async () => {
  const session = await createSession(server, "timeouts.never_complete", { ms: 600_000, keepAliveMs: 60_000 });
  const res = await echo(session.mcpUrl);
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.match(text, /response cut at the 1 s deadline \(FAULTLINE_MAX_RESPONSE_SECONDS\)/);
  const [entry] = await journal(session.id, 1);
  assert.equal(entry?.response.cutByDeadline, true);
});

test("a drip whose body would take minutes is closed at the deadline and journalled as cut", async () => {
  const session = await createSession(server, "timeouts.slow_drip", { chunkBytes: 1, intervalMs: 10_000 });
  const res = await echo(session.mcpUrl);
  const text = await res.text();
  // One byte every 10 s (the longest interval a drip accepts): the body stops after its first bytes.
  assert.ok(text.length < 10, text);
  const [entry] = await journal(session.id, 1);
  assert.equal(entry?.response.cutByDeadline, true);
});

test("an answer that ends in time is not marked as cut", async () => {
  const session = await createSession(server, "baseline");
  const res = await echo(session.mcpUrl);
  assert.equal(res.status, 200);
  await res.text();
  const [entry] = await journal(session.id, 1);
  assert.equal(entry?.response.cutByDeadline, undefined);
});

test("a subscriptions/listen stream ends gracefully, with its complete result, before the deadline", async () => {
  const session = await createSession(server, "baseline");
  const res = await fetch(session.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: modernMeta() } }),
  });
  const text = await res.text();
  assert.match(text, /"resultType":"complete"/);
  assert.doesNotMatch(text, /deadline/);
  const [entry] = await journal(session.id, 1);
  assert.equal(entry?.response.cutByDeadline, undefined);
});

test("a stall that the deadline cuts never runs the tool afterwards: the next order is number 1", async () => {
  // The stall (1.5 s) outlasts the deadline (1 s) by a little; the wait below gives the old behaviour time to show.
  const session = await createSession(server, "timeouts.stall_mid_stream", { ms: 1_500, nth: 1 });
  const order = (id: number) => postModern(session.mcpUrl, id, "tools/call", { name: "place_order", arguments: { item: "tea", quantity: 1 } });
  assert.match(await (await order(1)).text(), /deadline/);
  await sleep(1_500);
  const second = (await (await order(2)).json()) as Json;
  assert.equal(second.result.structuredContent.orderNumber, 1, JSON.stringify(second));
  const [first] = await journal(session.id, 1);
  assert.equal(first?.response.cutByDeadline, true);
});
