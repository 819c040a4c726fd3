import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, startServer, type TestServer } from "../helpers/server.ts";

// The live journal stream's bounds: at most 4 per session, and a reader that stops reading is cut off.

let server: TestServer;
before(async () => {
  // A small unread allowance and a short stall, so the test need not fill 1 MiB for 10 s.
  server = await startServer({ JOURNAL_STREAM_MAX_UNREAD_BYTES: "65536", JOURNAL_STREAM_STALL_SECONDS: "1" });
});
after(() => server?.close());

const open = (id: string, signal: AbortSignal) => fetch(`${server.url}/api/sessions/${id}/journal/stream?since=0`, { signal });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a session serves at most 4 live streams at once: the 5th gets 429 naming the limit, and a closed one frees its place", async () => {
  const session = await createSession(server, "baseline");
  const stops = Array.from({ length: 4 }, () => new AbortController());
  const streams = await Promise.all(stops.map((s) => open(session.id, s.signal)));
  for (const res of streams) assert.equal(res.status, 200);
  const refused = await fetch(`${server.url}/api/sessions/${session.id}/journal/stream`);
  assert.equal(refused.status, 429);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, "too_many_streams");
  assert.match(body.error.message, /At most 4 live journal streams/);
  // Another session is not affected.
  const other = await createSession(server, "baseline");
  const otherStop = new AbortController();
  assert.equal((await open(other.id, otherStop.signal)).status, 200);
  otherStop.abort();

  await streams[0]!.body!.cancel();
  stops[0]!.abort();
  // No entry is written: the heartbeat is what tells the session its reader is gone.
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    const again = new AbortController();
    const res = await open(session.id, again.signal);
    status = res.status;
    if (status === 200) stops[0] = again;
    else await res.body?.cancel(), await sleep(50);
  }
  assert.equal(status, 200, "the cancelled stream's place was given back");
  for (const s of stops) s.abort();
});

test("a stream whose reader leaves more than the allowance unread for the stall time is closed, and its place freed", async () => {
  const session = await createSession(server, "baseline");
  const stalled = new AbortController();
  const res = await open(session.id, stalled.signal);
  assert.equal(res.status, 200);
  // Never read `res`. Fill the pipes (loopback TCP buffers hold megabytes) and then the session's queue.
  const text = "x".repeat(60_000);
  for (let id = 1; id <= 150; id++) await (await postModern(session.mcpUrl, id, "tools/call", { name: "echo", arguments: { text } })).text();
  // Three more streams fit only once the stalled one has been closed (4 at most).
  const others: AbortController[] = [];
  for (let i = 0; i < 3; i++) {
    const stop = new AbortController();
    others.push(stop);
    assert.equal((await open(session.id, stop.signal)).status, 200);
  }
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    const stop = new AbortController();
    const fourth = await open(session.id, stop.signal);
    status = fourth.status;
    others.push(stop);
    if (status !== 200) await fourth.body?.cancel(), await sleep(100);
  }
  assert.equal(status, 200, "the stalled stream was closed, freeing its place");
  // The stalled reader, reading at last, finds its stream cut short: it ends (or errors) before the last entry.
  let received = "";
  try {
    for await (const chunk of res.body as ReadableStream<Uint8Array>) received += new TextDecoder().decode(chunk);
  } catch {
    // A cut stream may surface as an error.
  }
  assert.ok(!received.includes("id: 150\n"), "the stream stopped before the last entry");
  for (const s of [stalled, ...others]) s.abort();
});
