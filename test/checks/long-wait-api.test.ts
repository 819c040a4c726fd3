import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// ratelimit.retry_after_seconds with a wait of 600 s on the real server, judged by long-retry-after-not-slept: clients
// that stop on the wire (a DELETE of the MCP session) pass, clients that show nothing read as "cannot tell", a resend
// before the wait is left to http-retry-after-honoured. A client that sleeps the 600 s and resends fails; that takes
// ten minutes of real time, so its failing journal is built by hand (test/checks/long-wait.test.ts).

const server = useServer();
const LONG = { seconds: 600 };
const ECHO = { name: "echo", arguments: { text: "hi" } };

async function journal(sessionId: string): Promise<JournalEntry[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] }).entries;
}

/** The long-wait check once the journal holds an entry that `done` accepts. */
async function longWait(sessionId: string, done: (e: JournalEntry) => boolean): Promise<{ check: Check; checks: Check[] }> {
  for (let tries = 0; tries < 200 && !(await journal(sessionId)).some(done); tries++) await sleep(25);
  const checks = ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
  const check = checks.find((c) => c.id === "long-retry-after-not-slept");
  assert.ok(check, `no long-retry-after-not-slept among ${JSON.stringify(checks, null, 1)}`);
  return { check, checks };
}

const limitedCall = (e: JournalEntry) => e.rpc.method === "tools/call" && e.response.status === 429;

test("a 2025-11-25 fetch client that ends its MCP session after the 429 passes long-retry-after-not-slept", async () => {
  const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", LONG);
  const { sessionId, post } = await legacySession(mcpUrl);
  const res = await post({ id: 1, method: "tools/call", params: ECHO });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "600");
  await res.arrayBuffer();
  const del = await fetch(mcpUrl, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
  await del.arrayBuffer();
  const { check } = await longWait(id, (e) => e.request.method === "DELETE");
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /ended its MCP session \(DELETE, seq \d+\) 0 s later and never resent the call/);
});

test("a 2026-07-28 fetch client that shows nothing after the 429 reads as info: the journal cannot tell surfacing from sleeping", async () => {
  const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", LONG);
  assert.equal((await postModern(mcpUrl, 1, "tools/call", ECHO)).status, 429);
  const { check } = await longWait(id, limitedCall);
  assert.equal(check.status, "info");
  assert.match(check.message, /sent nothing more and had not resent the call by the journal's end, 0 s later: the journal cannot tell/);
});

test("a 2025-11-25 fetch client that resends 1 s after a Retry-After of 600 s reads as info here and fails http-retry-after-honoured", async () => {
  const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", LONG);
  const { post } = await legacySession(mcpUrl);
  assert.equal((await post({ id: 1, method: "tools/call", params: ECHO })).status, 429);
  await sleep(1_000);
  assert.equal((await post({ id: 2, method: "tools/call", params: ECHO })).status, 200);
  const { check, checks } = await longWait(id, (e) => e.rpc.method === "tools/call" && e.response.status === 200);
  assert.equal(check.status, "info");
  assert.match(check.message, /before the wait was over: http-retry-after-honoured judges that/);
  assert.equal(checks.find((c) => c.id === "http-retry-after-honoured")?.status, "fail");
});

async function v1(t: TestContext, mcpUrl: string) {
  const transport = new TransportV1(new URL(mcpUrl));
  const client = new ClientV1({ name: "long-wait-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

test("an application on the SDK v1 client (2025-11-25) that gives up on the 429 and terminates its session passes long-retry-after-not-slept", async (t) => {
  const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", LONG);
  const { client, transport } = await v1(t, mcpUrl);
  await assert.rejects(client.callTool(ECHO), /429/);
  await transport.terminateSession();
  const { check } = await longWait(id, (e) => e.request.method === "DELETE");
  assert.equal(check.status, "pass", check.message);
});

test("an application on the SDK v2 client (2026-07-28) that gives up on the 429 and closes reads as info: nothing on the wire says it stopped", async (t) => {
  const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", LONG);
  const client = new ClientV2({ name: "long-wait-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  await assert.rejects(client.callTool(ECHO), /429/);
  await client.close();
  const { check } = await longWait(id, limitedCall);
  assert.equal(check.status, "info", check.message);
  assert.match(check.message, /the journal cannot tell a client that surfaced the wait or stopped from one still sleeping on it/);
});

test("ratelimit.retry_after_seconds refuses a wait past a day with a 400 naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "ratelimit.retry_after_seconds", params: { seconds: 86_401 } }) });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /seconds/);
});
