import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, MODERN, modernMeta, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";
import { MAX_STORED_NAME, NAME_CUT_MARKER } from "../../src/base/stored-bounds.ts";
import { DEFAULT_BODY_CAP } from "../../src/journal/capture.ts";

// Issue 27, finding 3: one client grew a session's storage without bound (20 requests with 800 KB method names added
// 150 MB on disk) until its views answered 500. Over a real server: 60 requests with 800 KB names, and one legacy
// initialize with 800 KB capabilities and clientInfo, leave every stored name cut, the stored entries bounded by the
// body cap, and every view answering 200.

const server = useServer();
const LONG = 800_000;
const REQUESTS = 60;

/** A 2026-07-28 POST whose body is `body` (headers short: only the body carries the long names). */
const post = (mcpUrl: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, ...headers },
    body: JSON.stringify(body),
  });

const longName = (i: number) => `${String(i).padStart(3, "0")}${"m".repeat(LONG)}`;

async function sendLongNames(mcpUrl: string): Promise<void> {
  for (let i = 0; i < REQUESTS; i++) {
    const body =
      i % 2 === 0
        ? { jsonrpc: "2.0", id: i, method: longName(i), params: { _meta: modernMeta() } }
        : { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: longName(i), arguments: {}, _meta: modernMeta() } };
    const res = await post(mcpUrl, body, { "mcp-method": i % 2 === 0 ? "x" : "tools/call" });
    await res.arrayBuffer();
    assert.ok(res.status < 500, `request ${i} answered ${res.status}`);
  }
  // Two legacy initializes, one with 800 KB of capabilities, one with an 800 KB clientInfo name.
  for (const params of [
    { protocolVersion: "2025-11-25", capabilities: { huge: "c".repeat(LONG) }, clientInfo: { name: "faultline-test", version: "1" } },
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "n".repeat(LONG), version: "1" } },
  ]) {
    const res = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params }) });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
  }
}

test("60 requests with 800 KB method and tool names leave the session's storage bounded and its views answering with cut names", async () => {
  const { id, mcpUrl } = await createSession(server, "baseline");
  await sendLongNames(mcpUrl);
  const api = `${server.url}/api/sessions/${id}`;

  const view = await fetch(api);
  assert.equal(view.status, 200, "the session's view answers");
  const { counters } = (await view.json()) as { counters: Record<string, number> };
  for (const key of Object.keys(counters)) assert.ok(key.length <= MAX_STORED_NAME, `counter key of ${key.length} characters`);
  assert.ok(Object.keys(counters).some((k) => k.startsWith("method:000") && k.endsWith(NAME_CUT_MARKER)), `a cut method counter: ${Object.keys(counters).join(", ").slice(0, 500)}`);

  const journal = await fetch(`${api}/journal?limit=1000`);
  assert.equal(journal.status, 200, "the journal answers");
  await journal.arrayBuffer();
  const entries = await journalOf(server.url, id, REQUESTS + 2);
  assert.equal(entries.length, REQUESTS + 2, "one page holds them all: no entry is large");
  for (const entry of entries) {
    assert.ok((entry.rpc.method ?? "").length <= MAX_STORED_NAME, `a stored method of ${entry.rpc.method?.length} characters`);
    assert.ok((entry.rpc.toolName ?? "").length <= MAX_STORED_NAME, `a stored tool name of ${entry.rpc.toolName?.length} characters`);
    assert.ok(JSON.stringify(entry.clientInfo ?? {}).length <= 4096);
  }
  assert.ok(entries.some((e) => e.rpc.method?.startsWith("000m") && e.rpc.method.endsWith(NAME_CUT_MARKER)), "a method is shown cut, with the marker");
  assert.ok(entries.some((e) => e.rpc.toolName?.startsWith("001m") && e.rpc.toolName.endsWith(NAME_CUT_MARKER)), "a tool name is shown cut, with the marker");

  // The figure: every stored entry is bounded by the request and response body caps (64 KiB each) and a little more,
  // whatever the client sent: 62 entries of 800 KB names took about 50 MB before.
  for (const format of ["jsonl", "har"]) {
    const exported = await fetch(`${api}/journal?format=${format}`);
    assert.equal(exported.status, 200, `the ${format} export answers`);
    const text = await exported.text();
    assert.ok(text.length < (REQUESTS + 2) * (3 * DEFAULT_BODY_CAP), `the ${format} export holds ${text.length} characters`);
  }
  const perEntry = entries.map((e) => JSON.stringify(e).length);
  assert.ok(Math.max(...perEntry) < 3 * DEFAULT_BODY_CAP, `the largest stored entry is ${Math.max(...perEntry)} characters`);

  const checks = await fetch(`${api}/checks`);
  assert.equal(checks.status, 200, "the checks answer");
  const page = await fetch(`${server.url}/sessions/${id}`, { headers: { accept: "text/html" } });
  assert.ok(page.status < 500, `the dashboard page answers ${page.status}`);
  await page.arrayBuffer();
});
