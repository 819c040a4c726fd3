import { test } from "node:test";
import assert from "node:assert/strict";
import { journalOf } from "../helpers/journal.ts";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// Issue 24, item 6: when the client leaves, the journal records what it was sent and when it left, and the verdict is
// on those bytes, not on the body it never read.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };

/** Posts a tools/call, reads `chunks` chunks of its body (0: none), then aborts: the client gives up. */
async function leaveAfter(mcpUrl: string, chunks: number, headers: Record<string, string> = {}): Promise<number> {
  const controller = new AbortController();
  const res = await postModern(mcpUrl, 1, "tools/call", ORDER, { headers, signal: controller.signal });
  assert.equal(res.status, 200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let read = 0;
  for (let i = 0; i < chunks; i++) {
    const chunk = await reader.read();
    if (chunk.done) break;
    read += chunk.value.byteLength;
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return read;
}

test("a client that leaves a slow drip (accepting gzip, as fetch does) is journalled with the bytes it was sent, when it left, and a verdict on those bytes", async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.slow_drip", { chunkBytes: 8, intervalMs: 40 });
  const read = await leaveAfter(mcpUrl, 3, { "accept-encoding": "gzip, deflate" });
  assert.ok(read > 0, "the drip's first chunks reach the client as they are sent");
  const [entry] = await journalOf(server.url, id, 1);
  const response = entry!.response;
  assert.equal(typeof response.clientClosedAtMs, "number", JSON.stringify(response));
  assert.equal(entry!.durationMs, response.clientClosedAtMs, "the entry ends when the client left");
  // The answer is a whole JSON-RPC result; the client was sent only the start of it.
  assert.ok(!response.body.text.endsWith("}}"), `the journal holds the whole body: ${response.body.text}`);
  assert.equal(response.body.bytes, new TextEncoder().encode(response.body.text).byteLength);
  assert.notEqual(entry!.verdict?.outcome, "TOOL_SUCCESS");
  // The HAR export reads the entry: the time is the client's, the content what it was sent.
  const har = (await (await fetch(`${server.url}/api/sessions/${id}/journal?format=har`)).json()) as { log: { entries: { time: number; response: { content: { size: number; text: string } }; _faultline: { clientClosedAtMs: number | null; outcome: string } }[] } };
  const [exported] = har.log.entries;
  assert.equal(exported!.time, response.clientClosedAtMs);
  assert.equal(exported!._faultline.clientClosedAtMs, response.clientClosedAtMs);
  assert.deepEqual([exported!.response.content.size, exported!.response.content.text], [response.body.bytes, response.body.text]);
  assert.notEqual(exported!._faultline.outcome, "TOOL_SUCCESS");
});

test("a client that leaves a stream that never completes is journalled at the time it left, not when the hang would have ended", async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.never_complete", { ms: 60_000, keepAliveMs: 20 });
  await leaveAfter(mcpUrl, 2);
  const [entry] = await journalOf(server.url, id, 1);
  const left = entry!.response.clientClosedAtMs;
  assert.equal(typeof left, "number", JSON.stringify(entry!.response));
  assert.equal(entry!.durationMs, left);
  assert.ok(left! < 60_000);
  assert.equal(entry!.verdict?.outcome, "STREAM_INCOMPLETE");
  assert.equal(entry!.effects, "none", "the hang never ran the tool");
});
