import { test } from "node:test";
import assert from "node:assert/strict";
import { modernMeta, MODERN, postModern, useServer } from "../helpers/server.ts";
import { streamText } from "../helpers/sse.ts";

// Memory that is not in SQLite (open listen streams) belongs to the session, not to the URL path it came by:
// /mcp and /s/default/mcp are one session, so they share one channel. Its own server: this file changes the
// default session's scenario.

const server = useServer();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a listen stream opened on /mcp sees a tool list change triggered through /s/default/mcp", async () => {
  // The default session exists after its first MCP request; then it gets catalog.mutation, whose trigger changes the list.
  await (await postModern(`${server.url}/mcp`, 1, "tools/list")).arrayBuffer();
  const put = await fetch(`${server.url}/api/sessions/default/scenario`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "catalog.mutation", params: {} }),
  });
  assert.equal(put.status, 200, await put.text());

  const stop = new AbortController();
  const listen = await fetch(`${server.url}/mcp`, {
    method: "POST",
    signal: stop.signal,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: modernMeta() } }),
  });
  assert.equal(listen.status, 200);
  const stream = streamText(listen.body as ReadableStream<Uint8Array>);
  try {
    assert.ok(await stream.until("notifications/subscriptions/acknowledged"), stream.text);
    const trigger = await postModern(`${server.url}/s/default/mcp`, 2, "tools/call", { name: "trigger_tool_change", arguments: {} });
    assert.equal(trigger.status, 200, await trigger.text());
    // Bounded so that a missing notification fails the test instead of hanging it (the stream stays open for minutes).
    const seen = await Promise.race([stream.until("notifications/tools/list_changed"), sleep(15_000).then(() => false)]);
    assert.ok(seen, `no list_changed on the /mcp stream: ${stream.text}`);
  } finally {
    stop.abort();
    await stream.cancel();
  }
});
