import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// progress.long_running on the real server, judged by GET /api/sessions/{id}/checks: the official SDK v1 client
// (2025-11-25) and v2 client (2026-07-28), each as a client that passes, and fetch clients that give up too early or
// never, in both eras. The calls are short (hundreds of ms); the session's patience and bound scale with them.
// (Request timeouts stay a few seconds: the SDKs leave a call's timer running after maxTotalTimeout, which holds the process.)

const server = useServer();
const ECHO = { name: "echo", arguments: { text: "hi" } };
/** A call of 400 ms with progress every 40 ms; the client should stay 150 ms and be gone by 5 s. */
const PATIENT = { ms: 400, intervalMs: 40, expectPatienceMs: 150, expectBoundMs: 5_000 };
/** A call of 3 s that the client should leave between 100 ms and 1.5 s. */
const BOUNDED = { ms: 3_000, intervalMs: 40, expectPatienceMs: 100, expectBoundMs: 1_500 };
/** A call of 600 ms that outlasts a bound of 250 ms: a client that waits for its answer waited too long. */
const OUTLASTS = { ms: 600, intervalMs: 40, expectPatienceMs: 100, expectBoundMs: 250 };

/** The session's journal once `done` holds for it. */
async function journalUntil(sessionId: string, done: (entries: JournalEntry[]) => boolean, what: string): Promise<JournalEntry[]> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (done(entries)) return entries;
    await sleep(50);
  }
  throw new Error(`the journal never held ${what}`);
}

/** The session's journal once it holds a tools/call entry (written when its stream ended) and `more` says it is done. */
const journalWithCall = (sessionId: string, more: (entries: JournalEntry[]) => boolean = () => true) =>
  journalUntil(sessionId, (entries) => entries.some((e) => e.rpc.method === "tools/call") && more(entries), "the tools/call");

async function checksOf(sessionId: string, more?: (entries: JournalEntry[]) => boolean): Promise<Check[]> {
  await journalWithCall(sessionId, more);
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

function statusesOf(checks: Check[]): Record<string, string> {
  return Object.fromEntries(checks.filter((c) => c.id.startsWith("progress-")).map((c) => [c.id, c.status]));
}

const hasCancel = (entries: JournalEntry[]) => entries.some((e) => e.rpc.method === "notifications/cancelled");

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "progress-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "progress-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

/** Reads a long call's SSE stream until `events` progress notifications came, then aborts: a client that gives up early. */
async function abortAfterProgress(pending: Promise<Response>, controller: AbortController, events: number): Promise<void> {
  const res = await pending;
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  while ((text.match(/notifications\/progress/g) ?? []).length < events) {
    const { value, done } = await reader.read();
    assert.equal(done, false, `the stream ended before ${events} progress notifications: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
}

test("the SDK v1 client with onprogress and resetTimeoutOnProgress passes progress-token-sent and progress-patience at 2025-11-25, and gets its progress", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", PATIENT);
  const client = await v1(t, mcpUrl);
  const seen: number[] = [];
  const result = await client.callTool(ECHO, undefined, { onprogress: (p) => void seen.push(p.progress), resetTimeoutOnProgress: true, timeout: 5_000 });
  assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
  assert.ok(seen.length >= 2, `progress seen: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b), "progress increases");
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "info" });
});

test("the SDK v1 client whose request timeout fires cancels with notifications/cancelled: after the patience and within the bound, both pass at 2025-11-25", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", BOUNDED);
  const client = await v1(t, mcpUrl);
  await assert.rejects(client.callTool(ECHO, undefined, { onprogress: () => undefined, timeout: 500 }), /timed out/i);
  // The v1 client cancels with notifications/cancelled (sent in the background) and keeps reading the stream; once the
  // cancellation is in, closing the client ends the call's stream and so writes its entry.
  await journalUntil(id, hasCancel, "notifications/cancelled");
  await client.close();
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "pass" });
  assert.match(checks.find((c) => c.id === "progress-bounded")!.message, /sent notifications\/cancelled \(seq \d+\) on tools\/call echo/);
});

test("the SDK v1 client whose timeout ignores progress abandons a working tool before the session's patience: progress-patience fails at 2025-11-25", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", { ...BOUNDED, expectPatienceMs: 2_000, expectBoundMs: 2_500 });
  const client = await v1(t, mcpUrl);
  await assert.rejects(client.callTool(ECHO, undefined, { onprogress: () => undefined, timeout: 300 }), /timed out/i);
  await journalUntil(id, hasCancel, "notifications/cancelled");
  await client.close();
  const checks = await checksOf(id);
  assert.equal(statusesOf(checks)["progress-patience"], "fail");
  assert.match(checks.find((c) => c.id === "progress-patience")!.message, /sent notifications\/cancelled .* while progress kept arriving/);
});

test("the SDK v1 client's maxTotalTimeout rejects the call but neither cancels nor closes the stream, so the wire shows it waiting past the bound: progress-bounded fails", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", OUTLASTS);
  const client = await v1(t, mcpUrl);
  await assert.rejects(client.callTool(ECHO, undefined, { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 5_000, maxTotalTimeout: 120 }), /timeout/i);
  const checks = await checksOf(id);
  assert.equal(statusesOf(checks)["progress-bounded"], "fail");
  assert.equal(checks.some((c) => c.id === "timeout-cancelled"), false, "no cancellation on the wire");
});

test("the SDK v1 client without onprogress sends no progressToken and gets progress-token-sent warning: the server sends no progress", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", { ...PATIENT, ms: 150 });
  const client = await v1(t, mcpUrl);
  await client.callTool(ECHO);
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "warning", "progress-patience": "info", "progress-bounded": "info" });
  const [call] = (await journalWithCall(id)).filter((e) => e.rpc.method === "tools/call");
  assert.equal((call!.response.sseEvents ?? []).filter((e) => e.data.includes("notifications/progress")).length, 0, "no progress without a token");
});

test("the SDK v1 client that resets its timeout on every progress and sets no maximum fails progress-bounded: it waits as long as the tool runs", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", OUTLASTS);
  const client = await v1(t, mcpUrl);
  await client.callTool(ECHO, undefined, { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 5_000 });
  const checks = await checksOf(id);
  assert.equal(statusesOf(checks)["progress-bounded"], "fail");
  assert.equal(statusesOf(checks)["progress-patience"], "pass");
});

test("the SDK v2 client with onprogress passes progress-token-sent and progress-patience at 2026-07-28, the progress on the call's own stream", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", PATIENT);
  const client = await v2(t, mcpUrl);
  const seen: number[] = [];
  const result = await client.callTool(ECHO, { onprogress: (p) => void seen.push(p.progress), resetTimeoutOnProgress: true, timeout: 5_000 });
  assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
  assert.ok(seen.length >= 2, `progress seen: ${JSON.stringify(seen)}`);
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "info" });
  const call = (await journalWithCall(id)).find((e) => e.rpc.method === "tools/call")!;
  assert.equal(call.protocolVersion, "2026-07-28");
});

test("the SDK v2 client with a maxTotalTimeout gives up within the bound at 2026-07-28: progress-bounded passes", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", BOUNDED);
  const client = await v2(t, mcpUrl);
  await assert.rejects(client.callTool(ECHO, { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 5_000, maxTotalTimeout: 500 }));
  await client.close();
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "pass" });
});

test("the SDK v2 client in legacy mode with onprogress passes progress-token-sent and progress-patience at 2025-11-25", async (t) => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", PATIENT);
  const client = new ClientV2({ name: "progress-v2-legacy", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  const seen: number[] = [];
  await client.callTool(ECHO, { onprogress: (p) => void seen.push(p.progress), resetTimeoutOnProgress: true, timeout: 5_000 });
  assert.ok(seen.length >= 2, `progress seen: ${JSON.stringify(seen)}`);
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "info" });
  assert.equal((await journalWithCall(id)).find((e) => e.rpc.method === "tools/call")!.protocolVersion, "2025-11-25");
});

test("a 2026-07-28 fetch client that closes the stream after two progress notifications fails progress-patience", async () => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", { ...BOUNDED, expectPatienceMs: 2_000, expectBoundMs: 2_500 });
  const controller = new AbortController();
  await abortAfterProgress(postModern(mcpUrl, 1, "tools/call", ECHO, { meta: { progressToken: "job-1" }, signal: controller.signal }), controller, 2);
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "fail", "progress-bounded": "pass" });
  assert.match(checks.find((c) => c.id === "progress-patience")!.message, /closed the stream on tools\/call echo \(seq \d+, a call of 3000 ms\) after \d+ ms while progress kept arriving .*before the 2000 ms/);
});

test("a 2025-11-25 fetch client that closes the stream after two progress notifications fails progress-patience", async () => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", { ...BOUNDED, expectPatienceMs: 2_000, expectBoundMs: 2_500 });
  const { sessionId } = await legacySession(mcpUrl);
  const controller = new AbortController();
  const pending = fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { ...ECHO, _meta: { progressToken: 5 } } }),
    signal: controller.signal,
  });
  await abortAfterProgress(pending, controller, 2);
  const checks = await checksOf(id);
  assert.equal(statusesOf(checks)["progress-patience"], "fail");
});

test("a 2026-07-28 fetch client that reads a call to its end past the bound fails progress-bounded", async () => {
  const { id, mcpUrl } = await createSession(server, "progress.long_running", OUTLASTS);
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO, { meta: { progressToken: "job-2" } });
  assert.match(await res.text(), /"text":"hi"/);
  const checks = await checksOf(id);
  assert.deepEqual(statusesOf(checks), { "progress-token-sent": "pass", "progress-patience": "pass", "progress-bounded": "fail" });
});

test("progress.long_running refuses a bound shorter than the patience with a 400 naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "progress.long_running", params: { expectPatienceMs: 5_000, expectBoundMs: 1_000 } }),
  });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /params\.expectBoundMs.*at least expectPatienceMs/);
});
