import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { Check } from "../../src/checks/index.ts";
import { checksOnceJournalled } from "../helpers/checks.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// ratelimit.retry_after_seconds with RateLimit header fields and no Retry-After, on the real server: fetch clients that
// read the reset and wait pass http-retry-after-honoured, fetch clients that back off a little but ignore the reset fail
// it. Each form (the current draft's RateLimit, the older RateLimit-Reset, X-RateLimit-Reset as a Unix time), both eras.
// The SDK clients do not retry a 429, nor show its headers to the application, so they have no part here.

const server = useServer();
const ECHO = { name: "echo", arguments: { text: "hi" } };
const FORMS = ["ietf", "draft", "x"] as const;

/** The wait a client that reads the RateLimit fields takes from them, in ms. */
function resetOf(res: Response): number {
  const field = res.headers.get("ratelimit");
  if (field !== null) return Number(/;t=(\d+)/.exec(field)![1]) * 1000;
  const draft = res.headers.get("ratelimit-reset");
  if (draft !== null) return Number(draft) * 1000;
  return Number(res.headers.get("x-ratelimit-reset")) * 1000 - Date.now();
}

async function honoured(sessionId: string): Promise<Check> {
  const checks = await checksOnceJournalled(server, sessionId, 2);
  const found = checks.find((c) => c.id === "http-retry-after-honoured");
  assert.ok(found, `no http-retry-after-honoured among ${JSON.stringify(checks, null, 1)}`);
  return found;
}

for (const form of FORMS) {
  test(`a 2026-07-28 fetch client that waits out the ${form} RateLimit reset passes http-retry-after-honoured without Retry-After`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", { seconds: 1, rateLimit: form, retryAfter: false });
    const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), null);
    await res.arrayBuffer();
    await sleep(resetOf(res) + 50);
    assert.equal((await postModern(mcpUrl, 2, "tools/call", ECHO)).status, 200);
    const check = await honoured(id);
    assert.equal(check.status, "pass", check.message);
    assert.match(check.message, /asked for a reset in \d+ ms \(.*no Retry-After\)/);
  });

  test(`a 2026-07-28 fetch client that backs off 150 ms and ignores the ${form} RateLimit reset fails http-retry-after-honoured`, async () => {
    const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", { seconds: 1, rateLimit: form, retryAfter: false });
    assert.equal((await postModern(mcpUrl, 1, "tools/call", ECHO)).status, 429);
    await sleep(150);
    assert.equal((await postModern(mcpUrl, 2, "tools/call", ECHO)).status, 200);
    const check = await honoured(id);
    assert.equal(check.status, "fail", check.message);
  });
}

test("a 2025-11-25 fetch client that waits out the RateLimit field's window passes, and one that ignores it fails", async () => {
  for (const [waitFor, expected] of [["reset", "pass"], ["150 ms", "fail"]] as const) {
    const { id, mcpUrl } = await createSession(server, "ratelimit.retry_after_seconds", { seconds: 1, rateLimit: "ietf", retryAfter: false });
    const { post } = await legacySession(mcpUrl);
    const res = await post({ id: 1, method: "tools/call", params: ECHO });
    assert.equal(res.status, 429);
    assert.match(res.headers.get("ratelimit-policy") ?? "", /^"default";q=100;w=60$/);
    await res.arrayBuffer();
    await sleep(waitFor === "reset" ? resetOf(res) + 50 : 150);
    assert.equal((await post({ id: 2, method: "tools/call", params: ECHO })).status, 200);
    const checks = await checksOnceJournalled(server, id, 4);
    assert.equal(checks.find((c) => c.id === "http-retry-after-honoured")?.status, expected, waitFor);
  }
});

test("ratelimit.retry_after_seconds refuses retryAfter false without a rateLimit form, naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "ratelimit.retry_after_seconds", params: { retryAfter: false } }) });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /retryAfter.*needs a rateLimit form/);
});
