import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { Check } from "../../src/checks/index.ts";
import { useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";

// intermediary.proxy in front of a real upstream: the intermediary calls the upstream at once, and when the window
// passes before the answer is through, the client gets the page while the upstream has run the tool all the same.

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "json" });
});
after(() => upstream.close());

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

test("a proxied call cut by the intermediary's 504 still ran on the upstream, and a blind resend fails non-idempotent-not-replayed", async () => {
  const { status, json } = await createProxied(server.url, {
    scenario: "intermediary.proxy",
    params: { preset: "nginx_504", idleMs: 300, workMs: 1_000, nth: 1 },
    upstream: upstream.url,
  });
  assert.equal(status, 201, JSON.stringify(json));
  const before = upstream.calls.charge ?? 0;
  const cut = await call(json.mcpUrl, 1, "charge", { cents: 5 });
  assert.equal(cut.status, 504);
  assert.match(await cut.text(), /504 Gateway Time-out/);
  assert.equal(upstream.calls.charge, before + 1, "the upstream ran the charge behind the intermediary");
  await journalWhen(server.url, json.id, (all) => all.length === 1);
  const again = await call(json.mcpUrl, 2, "charge", { cents: 5 });
  assert.equal(again.status, 200);
  await again.text();
  const entries = await journalWhen(server.url, json.id, (all) => all.length === 2);
  const first = entries.find((e) => e.rpc.kind === "request" && e.response.status === 504)!;
  assert.equal(first.proxied?.mode, "alter");
  assert.notEqual(first.effects, "none", "a call the upstream took is not journalled as never run");
  const replay = (await checksOf(json.id)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", JSON.stringify(replay));
  assert.equal(upstream.calls.charge, before + 2, "the blind resend charged twice");
});

test("a proxied call the upstream answers within the window passes through with the upstream's own answer", async () => {
  const { json } = await createProxied(server.url, {
    scenario: "intermediary.proxy",
    params: { preset: "cloudflare_524", idleMs: 2_000, workMs: 0 },
    upstream: upstream.url,
  });
  const res = await call(json.mcpUrl, 1, "lookup", { key: "k" });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.match(text, /"jsonrpc":"2.0"/);
  await sleep(0);
  const entries = await journalWhen(server.url, json.id, (all) => all.length === 1);
  assert.equal(entries[0]?.proxied?.mode, "alter");
  assert.equal(entries[0]?.effects, "ran");
});

/** An upstream that takes `ms` to answer every POST: tools/list with one unannotated tool, tools/call with a result. */
async function slowUpstream(ms: number): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  let calls = 0;
  const http = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const message = JSON.parse(body || "{}") as { id?: number; method?: string };
      if (message.method === "tools/call") calls++;
      const result = message.method === "tools/list" ? { tools: [{ name: "slow_order", inputSchema: { type: "object" } }] } : { content: [{ type: "text", text: "done" }] };
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id ?? null, result }));
      }, message.method === "tools/call" ? ms : 0);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, calls: () => calls, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

test("a proxied call cut while the upstream is still working reads as possibly run, so a blind resend fails non-idempotent-not-replayed", async (t) => {
  const slow = await slowUpstream(1_000);
  t.after(() => slow.close());
  const { status, json } = await createProxied(server.url, {
    scenario: "intermediary.proxy",
    params: { preset: "alb_504", idleMs: 200, workMs: 0, nth: 1 },
    upstream: slow.url,
  });
  assert.equal(status, 201, JSON.stringify(json));
  const cut = await call(json.mcpUrl, 1, "slow_order", {});
  assert.equal(cut.status, 504);
  await cut.text();
  const [first] = await journalWhen(server.url, json.id, (all) => all.length === 1);
  assert.equal(slow.calls(), 1, "the upstream took the call");
  assert.equal(first?.effects, "possible");
  await (await call(json.mcpUrl, 2, "slow_order", {})).text();
  await journalWhen(server.url, json.id, (all) => all.length === 2);
  const replay = (await checksOf(json.id)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", JSON.stringify(replay));
  assert.match(replay?.message ?? "", /may have run the tool/);
});

test("sse_buffered in front of an upstream holds the upstream's own notifications and answer, and delivers them in one burst", async (t) => {
  const streaming = await startUpstream({ responseMode: "sse" });
  t.after(() => streaming.close());
  const { status, json } = await createProxied(server.url, {
    scenario: "intermediary.proxy",
    params: { preset: "sse_buffered", workMs: 300, intervalMs: 100 },
    upstream: streaming.url,
  });
  assert.equal(status, 201, JSON.stringify(json));
  const res = await call(json.mcpUrl, 1, "report", { steps: 3 });
  assert.equal(res.status, 200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  await reader.cancel().catch(() => undefined);
  const first = new TextDecoder().decode(value);
  assert.equal((first.match(/step \d of 3/g) ?? []).length, 3, first);
  assert.match(first, /3 steps done/, "the answer came in the same read as the held notifications");
  const [entry] = await journalWhen(server.url, json.id, (all) => all.length === 1);
  assert.equal(entry?.proxied?.mode, "alter");
});
