import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// ratelimit.concurrency on the real server, judged by GET /api/sessions/{id}/checks: a burst of four calls meets a
// limit of two (held 600 ms), the other two get 429 with Retry-After 1 s. Clients that wait and resend only the limited
// calls pass inflight-not-amplified; clients that answer each 429 with two more calls at once fail it. Fetch clients
// in both eras, and applications on the SDK v1 (2025-11-25) and v2 (2026-07-28) clients (neither SDK retries a 429 itself).

const server = useServer();
const PARAMS = { limit: 2, times: 2, holdMs: 600, seconds: 1 };
/**
 * The 429's body both ways: text, and a JSON-RPC error. Either is an answer known whole: it ends as it is handed on,
 * often in the millisecond its request arrived, and one of the burst's calls may arrive after it.
 */
const BODIES = [
  { body: "text", named: "a text 429" },
  { body: "jsonrpc", named: "a JSON-RPC 429" },
] as const;
const BURST = 4;
const args = (n: number) => ({ name: "echo", arguments: { text: `call ${n}` } });

/** The journal the checks were last read from, a line per entry, for a failure's message. */
let timeline = "";

/** The checks once the journal holds `calls` tools/call entries (a held call is journalled when its answer ends). */
async function checksAfter(sessionId: string, calls: number): Promise<Check[]> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (entries.filter((e) => e.rpc.method === "tools/call").length >= calls) {
      timeline = entries.map((e) => `seq ${e.seq}: ${e.rpc.method ?? "-"} from ${e.time.slice(11)} for ${e.durationMs} ms, ${e.response.status}`).join("\n");
      return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
    }
    await sleep(50);
  }
  throw new Error(`the journal never held ${calls} tools/call entries`);
}

/** A check's message and the journal it judged. */
const why = (check: Check) => `${check.message}\n${timeline}`;

function inflight(checks: Check[]): Check {
  const found = checks.find((c) => c.id === "inflight-not-amplified");
  assert.ok(found, `no inflight-not-amplified among ${JSON.stringify(checks, null, 1)}`);
  return found;
}

/** Sends the burst with `send`; the calls answered 429 are resent by `onLimited` (which gets the call's number). */
async function burst(send: (n: number) => Promise<Response>, onLimited: (n: number) => Promise<unknown>): Promise<number[]> {
  const limited: number[] = [];
  const pending: Promise<unknown>[] = [];
  await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const res = await send(i + 1);
      await res.arrayBuffer();
      if (res.status === 429) limited.push(i + 1), pending.push(onLimited(i + 1));
      else assert.equal(res.status, 200);
    }),
  );
  await Promise.all(pending);
  return limited;
}

const modern = (mcpUrl: string) => (n: number) => postModern(mcpUrl, n, "tools/call", args(n));

async function legacy(mcpUrl: string) {
  const { post } = await legacySession(mcpUrl);
  let id = 100;
  return (n: number) => post({ id: id++, method: "tools/call", params: args(n) });
}

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "concurrency-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "concurrency-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

/** An application's burst on an SDK client: four calls at once, then `again` for each that the SDK rejected with 429. */
async function appBurst(call: (n: number) => Promise<unknown>, again: (n: number) => Promise<unknown>): Promise<void> {
  const settled = await Promise.allSettled(Array.from({ length: BURST }, (_, i) => call(i + 1)));
  const rejected = settled.flatMap((s, i) => (s.status === "rejected" ? [{ n: i + 1, reason: String(s.reason) }] : []));
  assert.equal(rejected.length, 2, JSON.stringify(settled));
  for (const r of rejected) assert.match(r.reason, /429/);
  await Promise.all(rejected.map((r) => again(r.n)));
}

/** An application that answers each rejected call of its burst at once with two calls (while the admitted ones still run). */
async function hedgingBurst(call: (n: number) => Promise<unknown>): Promise<void> {
  let rejected = 0;
  await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      call(i + 1).catch((error: unknown) => {
        assert.match(String(error), /429/);
        rejected++;
        return Promise.all([call(i + 1), call(i + 11)]);
      }),
    ),
  );
  assert.equal(rejected, 2);
}

for (const { body, named } of BODIES) {
  test(`a 2026-07-28 fetch client that waits Retry-After and resends only the limited calls passes inflight-not-amplified (${named})`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const send = modern(mcpUrl);
    const limited = await burst(send, async (n) => {
      await sleep(1_050);
      const res = await send(n);
      assert.equal(res.status, 200, await res.text());
    });
    assert.equal(limited.length, 2, "two of the four calls were limited");
    const checks = await checksAfter(id, BURST + 2);
    const check = inflight(checks);
    assert.equal(check.status, "pass", why(check));
    assert.match(check.message, /at most [23] requests in flight at once, no more than the [34] before it \([23] requests after it\)/);
    const honoured = checks.find((c) => c.id === "http-retry-after-honoured");
    assert.equal(honoured?.status, "pass");
  });

  test(`a 2026-07-28 fetch client that answers each 429 with two calls at once fails inflight-not-amplified (${named})`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const send = modern(mcpUrl);
    await burst(send, (n) => Promise.all([send(n), send(n + 10)].map(async (p) => (await p).arrayBuffer())));
    const check = inflight(await checksAfter(id, BURST + 4));
    assert.equal(check.status, "fail", why(check));
    assert.match(check.message, /up to 6 requests in flight at once .* more than the [34] before it: rate limiting made it send more at once/);
  });

  test(`a 2025-11-25 fetch client that waits Retry-After and resends only the limited calls passes inflight-not-amplified (${named})`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const send = await legacy(mcpUrl);
    await burst(send, async (n) => {
      await sleep(1_050);
      assert.equal((await send(n)).status, 200);
    });
    const check = inflight(await checksAfter(id, BURST + 2));
    assert.equal(check.status, "pass", why(check));
  });

  test(`a 2025-11-25 fetch client that answers each 429 with two calls at once fails inflight-not-amplified (${named})`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const send = await legacy(mcpUrl);
    await burst(send, (n) => Promise.all([send(n), send(n + 10)].map(async (p) => (await p).arrayBuffer())));
    const check = inflight(await checksAfter(id, BURST + 4));
    assert.equal(check.status, "fail", why(check));
  });

  test(`an application on the SDK v1 client (2025-11-25) that waits and resends the rejected calls passes inflight-not-amplified (${named})`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const client = await v1(t, mcpUrl);
    await appBurst((n) => client.callTool(args(n)), async (n) => {
      await sleep(1_050);
      await client.callTool(args(n));
    });
    const check = inflight(await checksAfter(id, BURST + 2));
    assert.equal(check.status, "pass", why(check));
  });

  test(`an application on the SDK v1 client (2025-11-25) that fires two calls for each rejected one, while the admitted calls run, fails inflight-not-amplified (${named})`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const client = await v1(t, mcpUrl);
    await hedgingBurst((n) => client.callTool(args(n)));
    const check = inflight(await checksAfter(id, BURST + 4));
    assert.equal(check.status, "fail", why(check));
  });

  test(`an application on the SDK v2 client (2026-07-28) that waits and resends the rejected calls passes inflight-not-amplified (${named})`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const client = await v2(t, mcpUrl);
    await appBurst((n) => client.callTool(args(n)), async (n) => {
      await sleep(1_050);
      await client.callTool(args(n));
    });
    const check = inflight(await checksAfter(id, BURST + 2));
    assert.equal(check.status, "pass", why(check));
    const entries = ((await (await fetch(`${server.url}/api/sessions/${id}/journal?limit=1000`)).json()) as { entries: JournalEntry[] }).entries;
    assert.ok(entries.filter((e) => e.rpc.method === "tools/call").every((e) => e.protocolVersion === "2026-07-28"));
  });

  test(`an application on the SDK v2 client (2026-07-28) that fires two calls for each rejected one, while the admitted calls run, fails inflight-not-amplified (${named})`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.concurrency", { ...PARAMS, body });
    const client = await v2(t, mcpUrl);
    await hedgingBurst((n) => client.callTool(args(n)));
    const check = inflight(await checksAfter(id, BURST + 4));
    assert.equal(check.status, "fail", why(check));
  });
}

test("ratelimit.concurrency refuses a limit of 0 with a 400 naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "ratelimit.concurrency", params: { limit: 0 } }) });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /limit/);
});
