import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Check } from "../../src/checks/index.ts";
import { SILENCE_MS } from "../../src/checks/stream-recovery.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, useServer } from "../helpers/server.ts";

const server = useServer();
type Json = Record<string, any>;

async function journal(sessionId: string, query = ""): Promise<JournalEntry[]> {
  const body = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000${query}`)).json()) as { entries: JournalEntry[] };
  return body.entries;
}

/** The journal once `ready` holds for it (the journal records an exchange after its body ends). */
async function journalWhen(sessionId: string, ready: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
  for (let tries = 0; ; tries++) {
    const entries = await journal(sessionId);
    if (ready(entries)) return entries;
    if (tries > 200) throw new Error(`the journal never got there: ${JSON.stringify(entries.map((e) => [e.request.method, e.rpc]))}`);
    await sleep(50);
  }
}

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

function find(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  if (process.env.DEBUG_CHECKS) console.log(JSON.stringify(found));
  return found;
}

const isResume = (e: JournalEntry) => e.request.method === "GET" && e.request.headers["last-event-id"] !== undefined;

/** The official clients in the legacy era (2025-11-25): v1, and v2 in legacy mode. */
const CLIENTS = [
  {
    name: "SDK v1",
    connect: async (url: string) => {
      const client = new ClientV1({ name: "recovery-v1", version: "0.0.0" });
      await client.connect(new TransportV1(new URL(url)));
      return client;
    },
  },
  {
    name: "SDK v2 (legacy mode)",
    connect: async (url: string) => {
      const client = new Client({ name: "recovery-v2", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    },
  },
];

for (const { name, connect } of CLIENTS) {
  test(`${name} resumes a cut stream with GET and Last-Event-ID after the stream's retry, and the checks say so`, async () => {
    const session = await createSession(server, "streams.cut_with_resume", { retryMs: 300 });
    const client = await connect(session.mcpUrl);
    const result = (await client.callTool({ name: "echo", arguments: { text: "after the cut" } })) as Json;
    assert.deepEqual(result.content, [{ type: "text", text: "after the cut" }]);
    await client.close();
    await journalWhen(session.id, (entries) => entries.some(isResume));

    const checks = await checksOf(session.id);
    const resumed = find(checks, "stream-resumed");
    assert.equal(resumed.status, "pass", resumed.message);
    assert.match(resumed.message, /resumed with GET and Last-Event-ID "[^"]+" \d+ ms later \(seq \d+\), and got the response/);
    assert.equal(find(checks, "stream-retry-honoured").status, "pass");
    assert.equal(find(checks, "request-after-cut").status, "pass");
  });
}

test("the GET that delivers a resumed result is journalled as its call, with the classifier's verdict, in the journal, its filter and its HAR", async () => {
  const session = await createSession(server, "streams.cut_with_resume", { retryMs: 0 });
  const client = await CLIENTS[0]!.connect(session.mcpUrl);
  await client.callTool({ name: "echo", arguments: { text: "hi" } });
  await client.close();
  const entries = await journalWhen(session.id, (all) => all.some(isResume));
  const call = entries.find((e) => e.request.method === "POST" && e.rpc.method === "tools/call");
  const resumed = entries.find(isResume);
  assert.ok(call && resumed);
  assert.equal(call.verdict?.outcome, "STREAM_INCOMPLETE");
  assert.deepEqual(resumed.rpc, call.rpc);
  assert.equal(resumed.rpc.toolName, "echo");
  assert.equal(resumed.era, "legacy");
  assert.equal(resumed.protocolVersion, call.protocolVersion);
  assert.equal(resumed.verdict?.outcome, "TOOL_SUCCESS");
  assert.equal(resumed.request.body.text, "", "the GET's own (empty) body is what the journal shows");

  assert.deepEqual((await journal(session.id, "&outcome=TOOL_SUCCESS")).filter(isResume).map((e) => e.seq), [resumed.seq]);

  const har = await (await fetch(`${server.url}/api/sessions/${session.id}/journal?format=har`)).json();
  const classified = (await (await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(har) })).json()) as Json;
  const harIndex = (har as Json).log.entries.findIndex((e: Json) => e._faultline.seq === resumed.seq);
  const entry = classified.entries.find((e: Json) => e.index === harIndex);
  assert.equal(entry?.verdict.outcome, "TOOL_SUCCESS", JSON.stringify(classified));
  assert.equal(entry?.id, call.rpc.id);
  // Every GET SSE stream of the export is classified or listed with a reason.
  for (const [index, e] of (har as Json).log.entries.entries()) {
    if (e.request.method !== "GET" || !String(e.response.content.mimeType).includes("event-stream")) continue;
    const accounted = classified.entries.some((c: Json) => c.index === index) || (classified.skipped ?? []).some((s: Json) => s.index === index && s.reason);
    assert.ok(accounted, `HAR entry ${index} is neither classified nor skipped`);
  }
});

test("SDK v1 after a cut without event ids does not re-send the call: cut-call-resent says what it did instead", async () => {
  const session = await createSession(server, "streams.cut_before_response", {});
  const client = new ClientV1({ name: "recovery-v1", version: "0.0.0" });
  await client.connect(new TransportV1(new URL(session.mcpUrl)));
  // The stream ends without the result; the client waits for it until its own timeout, then the application goes on.
  await assert.rejects(client.callTool({ name: "echo", arguments: { text: "lost" } }, undefined, { timeout: 1_000 }));
  await client.listTools();
  await client.close();
  const entries = await journalWhen(session.id, (all) => all.some((e) => e.rpc.method === "tools/list"));
  assert.equal(entries.find((e) => e.rpc.method === "tools/call")?.verdict?.outcome, "STREAM_INCOMPLETE");

  const checks = await checksOf(session.id);
  const resent = find(checks, "cut-call-resent");
  assert.equal(resent.status, "warning", resent.message);
  // SDK v1 cancels a call that timed out without waiting for that notification's answer, so the application's next
  // request may arrive before it: either is what the client did next.
  assert.match(resent.message, /the client (cancelled the call \d+ ms later \(seq \d+, notifications\/cancelled\)|went on \(seq \d+, tools\/list\)) without re-sending it, although the call is safe to repeat/);
  assert.equal(checks.find((c) => c.id === "stream-resumed"), undefined, "a stream without event ids cannot be resumed, so it is not judged on resuming");
  assert.equal(find(checks, "request-after-cut").status, "pass");
});

test("SDK v2 sends nothing after a cut without event ids: request-after-cut says the journal shows no further request within 10 s", async () => {
  const session = await createSession(server, "streams.cut_before_response", {});
  const client = new Client({ name: "recovery-v2", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  await assert.rejects(client.callTool({ name: "echo", arguments: { text: "lost" } }, { timeout: 1_000 }));
  await client.close();
  await journalWhen(session.id, (all) => all.some((e) => e.rpc.method === "tools/call"));
  // The check speaks only once the stated time has passed since the cut: wait it out.
  await sleep(SILENCE_MS + 500);
  const checks = await checksOf(session.id);
  const after = find(checks, "request-after-cut");
  assert.equal(after.status, "warning", after.message);
  assert.match(after.message, /^The journal shows no further request within 10\.0 s after the stream of tools\/call echo \(seq \d+\) ended before the response/);
});
