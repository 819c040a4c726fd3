import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// intermediary.proxy on the real server, judged by GET /api/sessions/{id}/checks: an intermediary that gives up on a
// silent server after its idle window. The windows are hundreds of ms; the server behind is silent longer.
// Clients: scripted fetch clients in both eras (one that resends blindly, one that backs off, one that moves on) and
// the official SDK v1 (2025-11-25) and v2 (2026-07-28) clients, which surface the page as an error and do not resend.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };
const ECHO = { name: "echo", arguments: { text: "hi" } };
/** The first tools/call meets the cut: a window of 300 ms, the server behind silent for 1 s. */
const CUT = { idleMs: 300, workMs: 1_000, nth: 1 };

async function checksOf(sessionId: string, entries: number): Promise<{ checks: Check[]; journal: JournalEntry[] }> {
  const journal = await journalOf(server.url, sessionId, entries);
  const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
  return { checks, journal };
}

function check(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  return found;
}

/** The session's journal, oldest first, once `done` holds for it. */
async function journalUntil(sessionId: string, done: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (done(entries)) return entries.sort((a, b) => a.seq - b.seq);
    await sleep(50);
  }
  throw new Error("the journal never got there");
}

const calls = (journal: JournalEntry[]) => journal.filter((e) => e.rpc.method === "tools/call");

test("nginx_504: a call whose server stays silent past the window gets 504 and an HTML page, and the journal says the tool ran", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "nginx_504", ...CUT });
  const res = await postModern(mcpUrl, 1, "tools/call", ORDER);
  assert.equal(res.status, 504);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const page = await res.text();
  assert.match(page, /<title>504 Gateway Time-out<\/title>/);
  assert.doesNotMatch(page, /jsonrpc/);
  assert.equal(res.headers.get("mcp-session-id"), null);
  const { journal } = await checksOf(id, 1);
  const [cut] = calls(journal);
  assert.equal(cut?.fault?.kind, "idle_cut");
  assert.equal(cut?.effects, "ran");
});

test("a server that answers within the window is not cut: the real answer goes out after its silence", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "nginx_504", idleMs: 1_500, workMs: 200 });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { result?: { content?: { text?: string }[] } };
  assert.equal(body.result?.content?.[0]?.text, "hi");
  const { journal } = await checksOf(id, 1);
  assert.ok((calls(journal)[0]?.durationMs ?? 0) >= 150, "the answer waited for the server's silence");
});

test("cloudflare_524 sends 524 with an edge's page, in Faultline's words", async () => {
  const { mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "cloudflare_524", ...CUT });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
  assert.equal(res.status, 524);
  const page = await res.text();
  assert.match(page, /<h1>Error 524<\/h1><h2>A timeout occurred<\/h2>/);
  assert.match(page, /Faultline intermediary/);
});

test("alb_502 sends 502 with a load balancer's page", async () => {
  const { mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "alb_502", ...CUT });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
  assert.equal(res.status, 502);
  assert.match(await res.text(), /502 Bad Gateway[\s\S]*load balancer/);
});

test("a 2026-07-28 client that resends place_order at once after the 504 fails non-idempotent-not-replayed (the tool ran) and gets http-retry-backoff warning", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "nginx_504", ...CUT });
  const cut = await postModern(mcpUrl, 1, "tools/call", ORDER);
  assert.equal(cut.status, 504);
  await cut.text();
  await journalOf(server.url, id, 1);
  const again = await postModern(mcpUrl, 2, "tools/call", ORDER);
  assert.equal(again.status, 200);
  await again.text();
  const { checks } = await checksOf(id, 2);
  const replay = check(checks, "non-idempotent-not-replayed");
  assert.equal(replay.status, "fail");
  assert.match(replay.message, /504.*the first attempt ran the tool/);
  assert.equal(check(checks, "http-retry-backoff").status, "warning");
});

test("a 2026-07-28 client that does not resend place_order after the 504 and moves on passes non-idempotent-not-replayed", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "nginx_504", ...CUT });
  await (await postModern(mcpUrl, 1, "tools/call", ORDER)).text();
  await journalOf(server.url, id, 1);
  await (await postModern(mcpUrl, 2, "tools/list")).text();
  const { checks } = await checksOf(id, 2);
  assert.equal(check(checks, "non-idempotent-not-replayed").status, "pass");
});

test("a 2025-11-25 client that backs off before resending echo after a 524 passes http-retry-backoff and http-retry-bounded", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "cloudflare_524", ...CUT });
  const { post } = await legacySession(mcpUrl);
  const first = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: ECHO });
  assert.equal(first.status, 524);
  await first.text();
  await sleep(300);
  const second = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: ECHO });
  assert.equal(second.status, 200);
  await second.text();
  // initialize, the call and its retry.
  const { checks } = await checksOf(id, 3);
  const backoff = check(checks, "http-retry-backoff");
  assert.equal(backoff.status, "pass", backoff.message);
  assert.match(backoff.message, /after a 524 to tools\/call/);
  assert.equal(check(checks, "http-retry-bounded").status, "pass");
});

test("a 2025-11-25 client that resends echo at once after a 524 gets http-retry-backoff warning", async () => {
  const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "cloudflare_524", ...CUT });
  const { post } = await legacySession(mcpUrl);
  await (await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: ECHO })).text();
  await (await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: ECHO })).text();
  const { checks } = await checksOf(id, 3);
  assert.equal(check(checks, "http-retry-backoff").status, "warning");
});

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "intermediary-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "intermediary-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

for (const [name, connect] of [["SDK v1 (2025-11-25)", v1], ["SDK v2 (2026-07-28)", v2]] as const) {
  test(`the ${name} client surfaces the 504 page as an error and does not resend place_order: non-idempotent-not-replayed passes`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "intermediary.proxy", { preset: "alb_504", ...CUT });
    const client = await connect(t, mcpUrl);
    await assert.rejects(client.callTool(ORDER), /504/);
    const listed = await client.listTools();
    assert.ok(listed.tools.length > 0);
    await client.close();
    // The journal holds the call once the intermediary's page was sent; the SDK's discovery requests come with it.
    const journal = await journalUntil(id, (entries) => entries.some((e) => e.rpc.method === "tools/call") && entries.some((e) => e.rpc.method === "tools/list"));
    const cut = calls(journal);
    assert.equal(cut.length, 1, "one tools/call, not resent");
    assert.equal(cut[0]?.response.status, 504);
    const { checks } = await checksOf(id, journal.length);
    assert.equal(check(checks, "non-idempotent-not-replayed").status, "pass");
  });
}

for (const [params, path] of [
  [{ preset: "haproxy_503" }, "params.preset"],
  [{ idleMs: 600_001 }, "params.idleMs"],
  [{ workMs: -1 }, "params.workMs"],
] as const) {
  test(`a session with bad ${path} is refused with 400 naming the field`, async () => {
    const res = await fetch(`${server.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scenario: "intermediary.proxy", params }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    assert.deepEqual(body.error.issues.map((i) => i.path), [path]);
  });
}
