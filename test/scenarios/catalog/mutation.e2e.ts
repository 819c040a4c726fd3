import { test } from "node:test";
import assert from "node:assert/strict";
import { streamText } from "../../helpers/sse.ts";
import { createSession, legacySession, MODERN, modernMeta, useServer } from "../../helpers/server.ts";
import { modern, call, legacy, toolText, toolNames, driveLegacyStream, finalResult, type Json } from "../../helpers/seen.ts";

// catalog.mutation: the tool list changes, and how each era hears of it.
const server = useServer();

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
