import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry, NewJournalEntry, UpstreamSide } from "../../src/journal/entry.ts";
import { journalled } from "../../src/journal/recorder.ts";
import { textResponse } from "../../src/wire/response.ts";

// An exchange's end is when its response went out: not when the proxy's trace of the upstream completes, nor when
// the journal gets to it. A fault's own answer (a 429, say) can be out long before that trace, and the checks that
// compare one request's end with the next one's arrival (inflight-not-amplified) read this end.

const LATE_MS = 150;

/**
 * Journals `response`; proxied, its upstream side is handed on LATE_MS after the body was read, and either way the
 * journal's turn after the response (afterResponse) comes `afterResponseMs` later.
 */
async function endOf(response: Response, proxied: boolean, afterResponseMs = 0): Promise<{ entry: NewJournalEntry; started: number; readAt: number; lateAt: number }> {
  const started = Date.now();
  const request = new Request("http://127.0.0.1/mcp", { method: "POST" });
  let lateAt = 0;
  let bodyRead!: () => void;
  const read = new Promise<void>((resolve) => (bodyRead = resolve));
  const side: UpstreamSide = { entry: { upstream: "http://127.0.0.1:1/mcp", mode: "replace" } };
  const trace = async () => {
    await read;
    await sleep(LATE_MS);
    lateAt = Date.now();
    return side;
  };
  const entries: NewJournalEntry[] = [];
  const done = new Promise<void>((resolve) => {
    const sent = journalled(request, { response, ...(proxied ? { proxied: trace } : {}) }, {
      started,
      scenario: "ratelimit.concurrency",
      bodyCap: 1024,
      keepClientIp: false,
      clientInfoFor: () => undefined,
      record: (entry) => (entries.push(entry), { seq: entries.length, ...entry }) as JournalEntry,
      waitUntil: () => undefined,
      afterResponse: (task) => void setTimeout(() => ((lateAt ||= Date.now()), task()), afterResponseMs),
      finished: resolve,
    });
    void sent.text().then(() => bodyRead());
  });
  await read;
  const readAt = Date.now();
  await done;
  assert.equal(entries.length, 1);
  return { entry: entries[0]!, started, readAt, lateAt };
}

const ERROR_TEXT = '{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"slow down"}}';

function streamed(text: string): Response {
  const bytes = new TextEncoder().encode(text);
  return new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }), { status: 429, headers: { "content-type": "application/json" } });
}

const bodies = [
  ["a streamed body", () => streamed(ERROR_TEXT)],
  ["a body known whole", () => textResponse(ERROR_TEXT, { status: 429, headers: { "content-type": "application/json" } })],
  ["no body", () => new Response(null, { status: 202 })],
] as const;

for (const [kind, make] of bodies) {
  test(`a proxied exchange with ${kind} ends when its response was sent, not when the upstream's side came ${LATE_MS} ms later`, async () => {
    const { entry, started, readAt, lateAt } = await endOf(make(), true);
    const end = started + entry.durationMs;
    assert.ok(lateAt >= readAt + LATE_MS - 5, "the upstream side came after the body was read");
    assert.ok(end <= readAt, `the exchange ended at +${end - started} ms, after its body was read at +${readAt - started} ms (the side came at +${lateAt - started} ms)`);
    assert.equal(entry.proxied?.mode, "replace", "the upstream's side is still journalled");
  });
}

for (const [kind, make] of bodies.slice(1)) {
  test(`an exchange with ${kind} ends as its response is handed on, not when the journal's turn comes ${LATE_MS} ms later`, async () => {
    const { entry, started, readAt, lateAt } = await endOf(make(), false, LATE_MS);
    const end = started + entry.durationMs;
    assert.ok(lateAt >= readAt + LATE_MS - 5, "the journal's turn came after the body was read");
    assert.ok(end <= readAt, `the exchange ended at +${end - started} ms, after its body was read at +${readAt - started} ms (the journal's turn came at +${lateAt - started} ms)`);
  });
}
