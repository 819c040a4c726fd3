import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// The pipeline's order (src/mcp/pipeline.ts): a transport fault wins over protocol validation; without one, the
// protocol error is the answer. And the endpoint's one rule for error bodies.

const server = useServer();
type Json = Record<string, any>;

async function rpcError(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  const body = JSON.parse(text) as Json;
  assert.equal(body.jsonrpc, "2.0", text);
  return body.error;
}

/** A 2026-07-28 tools/call whose Mcp-Name header disagrees with the body: a -32020 header mismatch. */
const mismatchedCall = (mcpUrl: string) => postModern(mcpUrl, 1, "tools/call", { name: "echo", arguments: { text: "hi" } }, { headers: { "mcp-name": "not-echo" } });

test("a scenario's 503 wins over a header mismatch: the transport answers before any MCP processing", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503] });
  const res = await mismatchedCall(session.mcpUrl);
  assert.equal(res.status, 503, await res.text());
});

test("a scenario's 503 wins over an unknown legacy Mcp-Session-Id", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503] });
  const res = await fetch(session.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "no-such-session", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(res.status, 503, await res.text());
});

test("without a transport fault the protocol error is the answer: a header mismatch gives 400 with -32020", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [200] });
  assert.equal((await rpcError(await mismatchedCall(session.mcpUrl), 400)).code, -32020);
});

test("a delayed notification is still answered 202 with no body", async () => {
  const session = await createSession(server, "baseline", { delayMs: 1 });
  const { post } = await legacySession(session.mcpUrl);
  const res = await post({ method: "notifications/cancelled", params: { requestId: 99 } });
  assert.equal(res.status, 202);
  assert.equal(await res.text(), "");
});

test("/s/{unknown}/mcp answers 404 with a JSON-RPC error naming the id and how to create the session", async () => {
  const res = await postModern(`${server.url}/s/no-such-session/mcp`, 1, "tools/list");
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const error = await rpcError(res, 404);
  assert.equal(error.code, -32600);
  assert.match(error.message, /no-such-session/);
  assert.match(error.message, /POST \/api\/sessions/);
  assert.deepEqual(error.data, { id: "no-such-session" });
});

