import { test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { importKey, paramsDigest, signState, verifyState } from "../../src/mcp/request-state.ts";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// Tests for rules that once had none: each fails under its patch in test/mutations/ (see run.sh).

const server = useServer();

test("a status sequence that is used up keeps answering its last code", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [200, 503] });
  const statuses: number[] = [];
  for (let id = 1; id <= 4; id++) {
    const res = await postModern(session.mcpUrl, id, "tools/call", { name: "echo", arguments: { text: "x" } });
    statuses.push(res.status);
    await res.text();
  }
  assert.deepEqual(statuses, [200, 503, 503, 503]);
});

test("a requestState is refused once its expiry has passed, and accepted just before", async () => {
  const key = await importKey(new Uint8Array(32).fill(7));
  const digest = await paramsDigest({ name: "deploy" });
  const exp = Date.parse("2026-12-01T00:00:00Z");
  const state = await signState(key, { m: "tools/call", d: digest, exp, k: ["confirm"] });
  const before = await verifyState(key, state, { method: "tools/call", digest, now: exp - 1 });
  assert.equal(before.ok, true);
  const after = await verifyState(key, state, { method: "tools/call", digest, now: exp + 1 });
  assert.deepEqual(after, { ok: false, reason: "requestState has expired" });
});

/** A POST with a Host header of our choosing (fetch does not let a caller set Host). */
function postWithHost(url: string, host: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("the MCP endpoint refuses a foreign Host with 403 (DNS rebinding), and serves its own", async () => {
  const session = await createSession(server, "baseline");
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const foreign = await postWithHost(session.mcpUrl, "attacker.example", body);
  assert.equal(foreign.status, 403, foreign.text);
  assert.match(foreign.text, /Host 'attacker\.example' is not allowed/);
  const own = await postWithHost(session.mcpUrl, new URL(session.mcpUrl).host, body);
  assert.notEqual(own.status, 403, own.text);
});
