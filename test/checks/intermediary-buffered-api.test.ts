import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// intermediary.proxy's presets that hold a stream back, on the real server: headers_withheld (no status line until
// the server's first byte) and sse_buffered (every SSE event held until the stream ends, as nginx's proxy_buffering
// does). Scripted fetch clients read the wire; the SDK v1 and v2 clients get every progress notification and the
// result in one burst, or give up first and (as an application may) call again.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };
const ECHO = { name: "echo", arguments: { text: "hi" } };

async function journalUntil(sessionId: string, done: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (done(entries)) return entries.sort((a, b) => a.seq - b.seq);
    await sleep(50);
  }
  throw new Error("the journal never got there");
}

const callCount = (n: number) => (entries: JournalEntry[]) => entries.filter((e) => e.rpc.method === "tools/call").length >= n;

async function checksOf(sessionId: string, calls: number): Promise<Check[]> {
  await journalUntil(sessionId, callCount(calls));
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

function check(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  return found;
}

test("headers_withheld: no status line or headers until the server's first byte, then its answer on an SSE stream", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "headers_withheld", workMs: 900 });
  let headersAt: "early" | "late" | undefined;
  const pending = postModern(mcpUrl, 1, "tools/call", ECHO).then((res) => ((headersAt ??= "early"), res));
  await sleep(300);
  headersAt ??= "late";
  const res = await pending;
  assert.equal(headersAt, "late", "the headers came only with the first byte, after the server's 900 ms of silence");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  assert.match(await res.text(), /"text":"hi"/);
  const [call] = (await journalUntil(id, callCount(1))).filter((e) => e.rpc.method === "tools/call");
  assert.equal(call?.fault?.kind, "buffered");
  assert.equal(call?.effects, "ran");
});

test("sse_buffered: the headers come at once, and every progress notification arrives with the result in one burst at the end", async () => {
  const { mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "sse_buffered", workMs: 800, intervalMs: 200 });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO, { meta: { progressToken: "p1" } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let first = "";
  while (first === "") {
    const { value, done } = await reader.read();
    assert.equal(done, false, "the stream ended with nothing");
    first += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  assert.equal((first.match(/notifications\/progress/g) ?? []).length, 4, first);
  assert.match(first, /"result":\{.*"text":"hi"/, "the result came in the same read as the first notification");
});

test("sse_buffered without a progressToken holds the keep-alive comments too: the first read already carries the result", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "sse_buffered", workMs: 400, intervalMs: 100 });
  const { post } = await legacySession(mcpUrl);
  const res = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: ECHO });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  await reader.cancel().catch(() => undefined);
  const first = new TextDecoder().decode(value);
  assert.match(first, /^: faultline: still working/);
  assert.match(first, /"result":/);
  const [call] = (await journalUntil(id, callCount(1))).filter((e) => e.rpc.method === "tools/call");
  assert.equal(call?.era, "legacy");
});

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "buffered-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "buffered-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

test("the SDK v1 client waiting on sse_buffered gets every held progress notification and the result at once, and is judged as waiting (info)", async (t) => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "sse_buffered", workMs: 600, intervalMs: 200 });
  const client = await v1(t, mcpUrl);
  const seen: number[] = [];
  const result = await client.callTool(ECHO, undefined, { onprogress: (p) => void seen.push(p.progress), timeout: 5_000 });
  assert.deepEqual(seen, [1, 2, 3]);
  assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
  assert.equal(check(await checksOf(id, 1), "timeout-client-bounded").status, "info");
});

test("the SDK v2 client that times out on sse_buffered's silence and calls place_order again fails non-idempotent-not-replayed: the held call ran", async (t) => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "sse_buffered", workMs: 800, intervalMs: 200, nth: 1 });
  const client = await v2(t, mcpUrl);
  await assert.rejects(client.callTool(ORDER, { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 300 }), /time/i);
  // The application retries: the SDK does not.
  const again = await client.callTool(ORDER);
  assert.match(JSON.stringify(again.content), /Order #\d placed/);
  // The held call answers after the resend, so the journal shows the resend while the first attempt was still open.
  const checks = await checksOf(id, 2);
  const replay = check(checks, "non-idempotent-not-replayed");
  assert.equal(replay.status, "fail", replay.message);
  assert.match(replay.message, /while the first attempt was still open .*the first attempt ran the tool/);
});

test("the SDK v2 client that times out on sse_buffered's silence and calls place_order with other arguments is not judged a replay", async (t) => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "sse_buffered", workMs: 800, intervalMs: 200, nth: 1 });
  const client = await v2(t, mcpUrl);
  await assert.rejects(client.callTool(ORDER, { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 300 }), /time/i);
  await client.callTool({ name: "place_order", arguments: { item: "widget", quantity: 2 } });
  // Both calls were answered and neither was sent twice: the check has nothing to judge, so it is absent.
  const checks = await checksOf(id, 2);
  assert.equal(checks.find((c) => c.id === "non-idempotent-not-replayed"), undefined, JSON.stringify(checks));
});

test("the SDK v1 client that times out on headers_withheld and calls place_order again fails non-idempotent-not-replayed: the server behind ran it", async (t) => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "headers_withheld", workMs: 800, nth: 1 });
  const client = await v1(t, mcpUrl);
  await assert.rejects(client.callTool(ORDER, undefined, { timeout: 300 }), /time/i);
  await client.callTool(ORDER);
  const replay = check(await checksOf(id, 2), "non-idempotent-not-replayed");
  assert.equal(replay.status, "fail", replay.message);
  assert.match(replay.message, /the first attempt ran the tool/);
});
