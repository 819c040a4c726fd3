import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, MODERN, modernMeta, startServer } from "../helpers/server.ts";

// Bodies over 1 MiB get 413 before they are parsed, whether they declare their length or are sent chunked.
// A body refused unread can leave a connection unusable, so each test has a server of its own.

const LIMIT = 1024 * 1024;

async function postTo(body: BodyInit, extra: RequestInit = {}) {
  const server = await startServer();
  try {
    const { mcpUrl } = await createSession(server, "baseline");
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" },
      body,
      ...extra,
    });
    return { status: res.status, body: (await res.json()) as { error: { code: number; message: string } } };
  } finally {
    await server.close();
  }
}

const call = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text }, _meta: modernMeta() } });

test("an MCP request body just under 1 MiB is served", async () => {
  const body = call("");
  const { status } = await postTo(call("x".repeat(LIMIT - body.length)));
  assert.equal(status, 200);
});

test("an MCP request whose Content-Length is over 1 MiB gets 413 with a JSON-RPC error", async () => {
  const { status, body } = await postTo(call("x".repeat(LIMIT)));
  assert.equal(status, 413);
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /1048576 bytes/);
});

test("a chunked MCP request without Content-Length that grows over 1 MiB gets 413", async () => {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 40) return controller.close();
      sent += 1;
      controller.enqueue(chunk);
    },
  });
  const { status, body } = await postTo(stream, { duplex: "half" } as RequestInit);
  assert.equal(status, 413);
  assert.equal(body.error.code, -32600);
});
