import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "../helpers/app.ts";

// Every answer on an MCP endpoint is an MCP answer, whatever happens below the route (routes/mcp.ts). In process,
// the app's Durable Object namespaces throw when touched (test/helpers/app.ts), which stands for any failure inside
// the session: the route must still answer as an MCP server would.

const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
const post = (path: string, headers: Record<string, string> = {}) =>
  request(path, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(call) });

for (const path of ["/mcp", "/s/some-session/mcp"]) {
  test(`a failure inside the session answers ${path} with a JSON-RPC internal error, not the API's error shape`, async () => {
    const response = await post(path);
    assert.equal(response.status, 500);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(body, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
  });

  test(`an answer on ${path} is never sniffed, runs sandboxed if a browser opens it, and keeps the CORS headers of an allowed origin`, async () => {
    const response = await post(path, { origin: "http://127.0.0.1" });
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.match(response.headers.get("content-security-policy") ?? "", /^sandbox; default-src 'none'/);
    assert.equal(response.headers.get("access-control-allow-origin"), "http://127.0.0.1");
    await response.body?.cancel();
  });
}
