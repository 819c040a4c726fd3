import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry, NewJournalEntry, UpstreamSide } from "../../src/journal/entry.ts";
import { journalled } from "../../src/journal/recorder.ts";
import { textResponse } from "../../src/wire/response.ts";

// A proxied exchange's end is when its response went out, not when the proxy's trace of the upstream completes: a
// fault's own answer (a 429, say) can be out long before that trace, and the checks that compare one request's end
// with the next one's arrival (inflight-not-amplified) read this end.

const LATE_MS = 150;

/** Journals `response` as a proxied exchange whose upstream side is handed on LATE_MS after the body was read. */
async function endOf(response: Response): Promise<{ entry: NewJournalEntry; started: number; readAt: number; sideAt: number }> {
  const started = Date.now();
  const request = new Request("http://127.0.0.1/mcp", { method: "POST" });
  let sideAt = 0;
  let bodyRead!: () => void;
  const read = new Promise<void>((resolve) => (bodyRead = resolve));
  const side: UpstreamSide = { entry: { upstream: "http://127.0.0.1:1/mcp", mode: "replace" } };
  const proxied = async () => {
    await read;
    await sleep(LATE_MS);
    sideAt = Date.now();
    return side;
  };
  const entries: NewJournalEntry[] = [];
  const done = new Promise<void>((resolve) => {
    const sent = journalled(request, { response, proxied }, {
      started,
      scenario: "ratelimit.concurrency",
      bodyCap: 1024,
      keepClientIp: false,
      clientInfoFor: () => undefined,
      record: (entry) => (entries.push(entry), { seq: entries.length, ...entry }) as JournalEntry,
      waitUntil: () => undefined,
      afterResponse: (task) => void setTimeout(task, 0),
      finished: resolve,
    });
    void sent.text().then(() => bodyRead());
  });
  await read;
  const readAt = Date.now();
  await done;
  assert.equal(entries.length, 1);
  return { entry: entries[0]!, started, readAt, sideAt };
}

function streamed(text: string): Response {
  const bytes = new TextEncoder().encode(text);
  return new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }), { status: 429, headers: { "content-type": "application/json" } });
}

for (const [kind, make] of [
  ["a streamed body", () => streamed('{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"slow down"}}')],
  ["a body known whole", () => textResponse('{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"slow down"}}', { status: 429, headers: { "content-type": "application/json" } })],
] as const) {
  test(`a proxied exchange with ${kind} ends when its body was sent, not when the upstream's side came ${LATE_MS} ms later`, async () => {
    const { entry, started, readAt, sideAt } = await endOf(make());
    const end = started + entry.durationMs;
    assert.ok(sideAt >= readAt + LATE_MS - 5, "the upstream side came after the body was read");
    assert.ok(end <= readAt, `the exchange ended at +${end - started} ms, after its body was read at +${readAt - started} ms (the side came at +${sideAt - started} ms)`);
    assert.equal(entry.proxied?.mode, "replace", "the upstream's side is still journalled");
  });
}
