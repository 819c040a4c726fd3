import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, OK_RESULT } from "./entries.ts";

// http-retry-after-honoured reads the RateLimit header fields' reset when a 429 has no Retry-After (hand-built journals).

const ECHO = { text: "hi" };
const limited = (headers: Record<string, string>) => call(1, 0, "echo", ECHO, { durationMs: 2, status: 429, body: "Too Many Requests", responseHeaders: { "content-type": "text/plain", ...headers } });
const retry = (at: number) => call(2, at, "echo", ECHO, { result: OK_RESULT });

function check(entries: JournalEntry[], id: string): Check | undefined {
  return checksOf(entries).find((c) => c.id === id);
}

const FORMS: [string, Record<string, string>][] = [
  ["the current draft's RateLimit field", { "ratelimit-policy": '"default";q=100;w=60', ratelimit: '"default";r=0;t=3' }],
  ["the older drafts' RateLimit-Reset", { "ratelimit-limit": "100", "ratelimit-remaining": "0", "ratelimit-reset": "3" }],
  ["X-RateLimit-Reset in seconds", { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "3" }],
];

for (const [form, headers] of FORMS) {
  test(`http-retry-after-honoured fails a retry before ${form} reset, with no Retry-After`, () => {
    const c = check([limited(headers), retry(500)], "http-retry-after-honoured");
    assert.equal(c?.status, "fail", JSON.stringify(checksOf([limited(headers), retry(500)])));
    assert.match(c!.message, /Retried 498 ms after a 429 to tools\/call echo that asked for a reset in 3000 ms \(.*no Retry-After\)/);
    assert.equal(check([limited(headers), retry(500)], "http-retry-backoff"), undefined, "a reset is a wait hint: no backoff check");
  });

  test(`http-retry-after-honoured passes a retry after ${form} reset`, () => {
    assert.equal(check([limited(headers), retry(3_100)], "http-retry-after-honoured")?.status, "pass");
  });
}

test("X-RateLimit-Reset as a Unix time is measured from the 429's Date header", () => {
  const date = "Sat, 01 Aug 2026 10:00:00 GMT";
  const headers = { date, "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Date.parse(date) / 1000 + 4) };
  assert.equal(check([limited(headers), retry(2_000)], "http-retry-after-honoured")?.status, "fail");
  assert.equal(check([limited(headers), retry(4_100)], "http-retry-after-honoured")?.status, "pass");
});

test("RateLimit fields with quota left are no wait hint: the retry is judged by http-retry-backoff", () => {
  const headers = { ratelimit: '"default";r=5;t=3' };
  assert.equal(check([limited(headers), retry(500)], "http-retry-after-honoured"), undefined);
  assert.equal(check([limited(headers), retry(500)], "http-retry-backoff")?.status, "pass");
});

test("Retry-After wins over a longer RateLimit reset", () => {
  const headers = { "retry-after": "1", ratelimit: '"default";r=0;t=30' };
  assert.equal(check([limited(headers), retry(1_100)], "http-retry-after-honoured")?.status, "pass");
});

test("a RateLimit reset of 600 s or more, with no Retry-After, is a long wait for long-retry-after-not-slept", () => {
  const headers = { ratelimit: '"daily";r=0;t=3600' };
  assert.equal(check([limited(headers), retry(3_600_100)], "long-retry-after-not-slept")?.status, "fail");
});
