import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { Check } from "../../src/checks/index.ts";
import { useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";

// The rate-limit scenarios of issue 25 item 6 in front of a real upstream: the limiter's 429s never reach it, the
// held calls reach it at once and their answers are held, the RateLimit fields are Faultline's, and the checks judge the client.

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "json" });
});
after(() => upstream.close());

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

test("ratelimit.concurrency over an upstream: the two admitted calls reach it, the two limited never do, and a client that answers 429s with more calls at once fails inflight-not-amplified", async () => {
  const { status, json } = await createProxied(server.url, { scenario: "ratelimit.concurrency", params: { limit: 2, times: 2, holdMs: 600, seconds: 1 }, upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  const before = upstream.calls.lookup ?? 0;
  const send = async (n: number) => {
    const res = await call(json.mcpUrl, n, "lookup", { key: `k${n}` });
    await res.arrayBuffer();
    return res.status;
  };
  const statuses = await Promise.all([1, 2, 3, 4].map(async (n) => {
    const got = await send(n);
    if (got === 429) await Promise.all([send(n + 10), send(n + 20)]);
    return got;
  }));
  assert.deepEqual([...statuses].sort(), [200, 200, 429, 429]);
  assert.equal((upstream.calls.lookup ?? 0) - before, 6, "the 2 admitted and the 4 later calls reached the upstream, the 2 limited did not");
  await journalWhen(server.url, json.id, (all) => all.length >= 8);
  const check = (await checksOf(json.id)).find((c) => c.id === "inflight-not-amplified");
  assert.equal(check?.status, "fail", JSON.stringify(check));
});

test("ratelimit.retry_after_seconds over an upstream sends its RateLimit fields and no Retry-After, and the retry checks read the reset", async () => {
  const { status, json } = await createProxied(server.url, { scenario: "ratelimit.retry_after_seconds", params: { seconds: 1, rateLimit: "draft", retryAfter: false }, upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  const first = await call(json.mcpUrl, 1, "lookup", { key: "r" });
  assert.equal(first.status, 429);
  assert.equal(first.headers.get("retry-after"), null);
  assert.equal(first.headers.get("ratelimit-reset"), "1");
  await first.arrayBuffer();
  await sleep(200);
  await (await call(json.mcpUrl, 2, "lookup", { key: "r" })).arrayBuffer();
  await journalWhen(server.url, json.id, (all) => all.length >= 2);
  const check = (await checksOf(json.id)).find((c) => c.id === "http-retry-after-honoured");
  assert.equal(check?.status, "fail", JSON.stringify(check));
});
