import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";
import { startUpstream } from "../helpers/upstream.ts";
import { type Json, newSession, replayOf, verdicts } from "./helpers.ts";

// Issue 17's promise: a proxied session is a recording. A real upstream (test/helpers/upstream.ts) is proxied with
// no fault, then stopped; a replay of the proxied session gives the same client the same answers and the same
// sequence of verdicts, with nothing listening upstream.
const server = useServer();

const CALLS = [
  { name: "lookup", arguments: { key: "a" } },
  { name: "charge", arguments: { cents: 250 } },
  { name: "lookup", arguments: { key: "b" } },
];

type Run = (mcpUrl: string) => Promise<string[]>;
const texts = (result: Json) => (result.content as Json[]).map((c) => c.text).join("");

const CLIENTS: { label: string; run: Run }[] = [
  {
    label: "SDK v1 (2025-11-25)",
    run: async (mcpUrl) => {
      const client = new ClientV1({ name: "faultline-proxied-v1", version: "0.0.0" });
      await client.connect(new TransportV1(new URL(mcpUrl)));
      const answers: string[] = [];
      for (const call of CALLS) answers.push(texts((await client.callTool(call)) as Json));
      await client.close();
      return answers;
    },
  },
  {
    label: "SDK v2 (2026-07-28)",
    run: async (mcpUrl) => {
      const client = new ClientV2({ name: "faultline-proxied-v2", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new TransportV2(new URL(mcpUrl)));
      const answers: string[] = [];
      for (const call of CALLS) answers.push(texts((await client.callTool(call)) as Json));
      await client.close();
      return answers;
    },
  },
];

/** A session's POSTs once their number has stopped growing (each is journalled after its body ended). */
async function settledPosts(sessionId: string) {
  let last = -1;
  for (let tries = 0; tries < 100; tries++) {
    const found = (await journalOf(server.url, sessionId, 0)).filter((e) => e.request.method === "POST");
    if (found.length === last && found.length > 0) return found;
    last = found.length;
    await sleep(150);
  }
  throw new Error(`the journal of ${sessionId} never settled`);
}

for (const { label, run } of CLIENTS) {
  test(`${label}: a proxied session, replayed with its upstream stopped, gives the same answers and the same sequence of verdicts`, async (t: TestContext) => {
    const upstream = await startUpstream();
    t.after(() => upstream.close().catch(() => undefined));
    const proxied = await newSession(server.url, { scenario: "baseline", upstream: upstream.url });
    const original = await run(proxied.mcpUrl);
    assert.deepEqual(original.map((a) => a.split(" (")[0]), ["record a", "charged 250", "record b"]);
    assert.deepEqual(upstream.calls, { lookup: 2, charge: 1 });
    const recordedPosts = await settledPosts(proxied.id);
    assert.ok(recordedPosts.every((e) => e.proxied?.mode === "forward"));
    await upstream.close();

    const replay = await replayOf(server.url, proxied.id);
    const replayed = await run(replay.mcpUrl);
    const replayedPosts = await settledPosts(replay.id);
    assert.deepEqual(replayed, original);
    assert.deepEqual(verdicts(replayedPosts), verdicts(recordedPosts));
    assert.deepEqual(upstream.calls, { lookup: 2, charge: 1 }, "the upstream saw nothing more");
  });
}

test("a proxied session created with record: false keeps no recording, and a replay of it is refused", async (t: TestContext) => {
  const upstream = await startUpstream();
  t.after(() => upstream.close());
  const proxied = await newSession(server.url, { scenario: "baseline", upstream: upstream.url, record: false });
  await CLIENTS[0]!.run(proxied.mcpUrl);
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "replay", params: { from: proxied.id } }),
  });
  assert.equal(res.status, 400, await res.clone().text());
});
