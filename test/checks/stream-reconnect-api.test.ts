import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { parseSse } from "../../src/classify/index.ts";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// streams.listen_close on the real server, judged by GET /api/sessions/{id}/checks: the official SDK v1 and v2 clients
// (2025-11-25, both open the standalone GET stream after initialize and reconnect it), and small fetch clients that
// each break one rule: reconnect in a tight loop, ignore retry:, resume with an old event id.

const server = useServer();
const VERSION = "2025-11-25";
const RECONNECT_IDS = ["stream-reconnect-bounded", "stream-reconnect-backoff", "stream-resumed-latest-id"];

/** The session's standalone GETs once `count` of them are journalled, then its checks of this family. */
async function checksAfterGets(sessionId: string, count: number): Promise<{ gets: JournalEntry[]; checks: Record<string, Check> }> {
  for (let tries = 0; tries < 300; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    const gets = entries.filter((e) => e.request.method === "GET");
    if (gets.length >= count) {
      const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
      return { gets, checks: Object.fromEntries(checks.filter((c) => RECONNECT_IDS.includes(c.id)).map((c) => [c.id, c])) };
    }
    await sleep(50);
  }
  throw new Error(`the journal never held ${count} GETs`);
}

/** The session's subscriptions/listen POSTs once `count` of them are journalled, then the family's checks. */
async function checksAfterListens(sessionId: string, count: number): Promise<{ checks: Record<string, Check> }> {
  for (let tries = 0; tries < 300; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (entries.filter((e) => e.rpc.method === "subscriptions/listen").length >= count) {
      const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
      return { checks: Object.fromEntries(checks.filter((c) => RECONNECT_IDS.includes(c.id)).map((c) => [c.id, c])) };
    }
    await sleep(50);
  }
  throw new Error(`the journal never held ${count} listens`);
}

const statuses = (checks: Record<string, Check>) => Object.fromEntries(Object.entries(checks).map(([id, c]) => [id, c.status]));

/** What one standalone GET met: its status, the event ids and retry it was sent, and whether its body was dropped. */
interface Met {
  status: number;
  ids: string[];
  retryMs?: number;
  dropped: boolean;
}

/** A fetch client's GET on the MCP session, read to its end (or its drop). */
async function getStream(mcpUrl: string, sessionId: string, lastEventId?: string): Promise<Met> {
  const res = await fetch(mcpUrl, {
    headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": VERSION, ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}) },
  });
  if (res.status !== 200) return await res.arrayBuffer(), { status: res.status, ids: [], dropped: false };
  let text = "";
  let dropped = false;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
  } catch {
    dropped = true;
  }
  const events = parseSse(text).events;
  const retry = events.findLast((e) => e.retry !== undefined)?.retry;
  return { status: 200, ids: events.flatMap((e) => (e.id !== undefined ? [e.id] : [])), ...(retry !== undefined ? { retryMs: retry } : {}), dropped };
}

/** A scripted client: GETs until a 405 or `max` GETs, choosing each Last-Event-ID and wait from what the last GETs met. */
async function scripted(mcpUrl: string, sessionId: string, max: number, next: (met: Met[]) => { lastEventId?: string; waitMs: number }): Promise<Met[]> {
  const met: Met[] = [await getStream(mcpUrl, sessionId)];
  while (met.length < max && met.at(-1)!.status !== 405) {
    const { lastEventId, waitMs } = next(met);
    await sleep(waitMs);
    met.push(await getStream(mcpUrl, sessionId, lastEventId));
  }
  return met;
}

/** The latest id the streams sent ("" after an empty id:), as the SSE standard keeps it; undefined before any. */
const latestId = (met: Met[]) => met.flatMap((m) => m.ids).at(-1);

/** A 2026-07-28 subscriptions/listen, read to its end (or its drop): its status, the methods (or result) of its events. */
async function listen(mcpUrl: string, id: number): Promise<{ status: number; messages: string[]; dropped: boolean }> {
  const res = await postModern(mcpUrl, id, "subscriptions/listen", { notifications: { toolsListChanged: true } });
  if (res.status !== 200) return await res.arrayBuffer(), { status: res.status, messages: [], dropped: false };
  let text = "";
  let dropped = false;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
  } catch {
    dropped = true;
  }
  const messages = parseSse(text).events.map((e) => JSON.parse(e.data) as { method?: string; result?: { resultType?: string } }).map((m) => m.method ?? `result ${m.result?.resultType}`);
  return { status: 200, messages, dropped };
}

/** A 2026-07-28 client that listens again after each end, waiting `waitMs(attempt)`, until `max` listens. */
async function relisten(mcpUrl: string, max: number, waitMs: (attempt: number) => number) {
  const met = [await listen(mcpUrl, 1)];
  while (met.length < max) {
    await sleep(waitMs(met.length));
    met.push(await listen(mcpUrl, met.length + 1));
  }
  return met;
}

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "reconnect-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "reconnect-v2", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

// ---- clients that pass ----

test("the SDK v1 client reconnects each dropped GET stream after retry: with the latest event id, and passes", async (t) => {
  const session = await createSession(server, "streams.listen_close", { variant: "drop", streams: 3, retryMs: 200 });
  await v1(t, session.mcpUrl);
  // Three dropped streams, then the 405 that ends the script.
  const { gets, checks } = await checksAfterGets(session.id, 4);
  assert.deepEqual(gets.map((g) => g.response.status), [200, 200, 200, 405]);
  assert.deepEqual(statuses(checks), { "stream-reconnect-backoff": "pass", "stream-resumed-latest-id": "pass" });
  // Each reconnect names the last id of the stream before it.
  for (let i = 1; i < gets.length; i++) assert.equal(gets[i]!.request.headers["last-event-id"], gets[i - 1]!.response.sseEvents!.at(-1)!.id);
});

test("the SDK v2 client (legacy era) reconnects each dropped GET stream after retry: with the latest event id, and passes", async (t) => {
  const session = await createSession(server, "streams.listen_close", { variant: "drop", streams: 3, retryMs: 200 });
  await v2(t, session.mcpUrl);
  const { gets, checks } = await checksAfterGets(session.id, 4);
  assert.deepEqual(gets.map((g) => g.response.status), [200, 200, 200, 405]);
  assert.deepEqual(statuses(checks), { "stream-reconnect-backoff": "pass", "stream-resumed-latest-id": "pass" });
});

test("the SDK v1 client backs off between 503s to its reconnects (1 s, then 1.5 s) and stops after two: bounded and backoff pass", async (t) => {
  const session = await createSession(server, "streams.listen_close", { variant: "reconnect_5xx", refusals: 3, retryMs: 0 });
  await v1(t, session.mcpUrl);
  const { gets, checks } = await checksAfterGets(session.id, 3);
  await sleep(2_500);
  const later = await checksAfterGets(session.id, 3);
  assert.deepEqual(later.gets.map((g) => g.response.status), [200, 503, 503], "the client stopped after its two reconnects");
  assert.deepEqual(statuses(checks), { "stream-reconnect-bounded": "pass", "stream-reconnect-backoff": "pass", "stream-resumed-latest-id": "pass" });
  assert.equal(gets.length, 3);
});

test("a fetch client that backs off between 409s and gives up after three passes stream-reconnect-bounded and -backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "conflict_409", refusals: 5, retryMs: 0 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 4, (m) => ({ lastEventId: latestId(m), waitMs: 150 * 2 ** (m.length - 1) }));
  assert.deepEqual(met.map((m) => m.status), [200, 409, 409, 409]);
  const { checks } = await checksAfterGets(session.id, 4);
  assert.deepEqual(statuses(checks), { "stream-reconnect-bounded": "pass", "stream-reconnect-backoff": "pass", "stream-resumed-latest-id": "pass" });
  assert.match(checks["stream-reconnect-bounded"]!.message, /3 reconnects in a row .* got nothing: 3 refused, 0 empty/);
});

test("a fetch client that keeps the latest id through a resumed stream cut before any new id passes stream-resumed-latest-id", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "resume_cut_before_id", retryMs: 100 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 4, (m) => ({ lastEventId: latestId(m), waitMs: 150 }));
  assert.deepEqual(met.map((m) => [m.status, m.ids.length, m.dropped]), [[200, 2, true], [200, 0, true], [200, 1, false], [405, 0, false]]);
  const { checks } = await checksAfterGets(session.id, 4);
  assert.equal(checks["stream-resumed-latest-id"]?.status, "pass");
});

test("a fetch client that sends no Last-Event-ID after an empty id: line (as the SSE standard resets it) passes stream-resumed-latest-id", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "empty_id", retryMs: 100 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 3, (m) => ({ ...(latestId(m) ? { lastEventId: latestId(m) } : {}), waitMs: 150 }));
  assert.equal(met[0]!.ids.at(-1), "", "the first stream's last event has an empty id");
  const { checks } = await checksAfterGets(session.id, 3);
  assert.equal(checks["stream-resumed-latest-id"]?.status, "pass");
});

// ---- clients that fail ----

test("the SDK v1 client forgets the resume point when a resumed GET stream is cut before any new id: stream-resumed-latest-id fails", async (t) => {
  const session = await createSession(server, "streams.listen_close", { variant: "resume_cut_before_id", retryMs: 100 });
  await v1(t, session.mcpUrl);
  const { gets, checks } = await checksAfterGets(session.id, 3);
  assert.equal(gets[1]!.request.headers["last-event-id"], gets[0]!.response.sseEvents!.at(-1)!.id, "the first resumption names the latest id");
  assert.equal(gets[2]!.request.headers["last-event-id"], undefined, "the second one names none");
  assert.equal(checks["stream-resumed-latest-id"]?.status, "fail");
  assert.match(checks["stream-resumed-latest-id"]!.message, /sent no Last-Event-ID, though the latest event id it was sent is .*, although it had resumed before/);
});

test("the SDK v1 client resumes with the id before an empty id: line, which the SSE standard resets: stream-resumed-latest-id warns", async (t) => {
  const session = await createSession(server, "streams.listen_close", { variant: "empty_id", retryMs: 100 });
  await v1(t, session.mcpUrl);
  const { gets, checks } = await checksAfterGets(session.id, 2);
  assert.equal(gets[1]!.request.headers["last-event-id"], gets[0]!.response.sseEvents![1]!.id);
  assert.equal(checks["stream-resumed-latest-id"]?.status, "warning");
  assert.match(checks["stream-resumed-latest-id"]!.message, /reset the event id with an empty id: line/);
});

test("a fetch client that reconnects in a tight loop to 503s fails stream-reconnect-bounded and stream-reconnect-backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "reconnect_5xx", refusals: 8, retryMs: 0 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 9, (m) => ({ lastEventId: latestId(m), waitMs: 0 }));
  assert.deepEqual(met.map((m) => m.status), [200, ...Array(8).fill(503)]);
  const { checks } = await checksAfterGets(session.id, 9);
  assert.equal(checks["stream-reconnect-bounded"]?.status, "fail");
  assert.match(checks["stream-reconnect-bounded"]!.message, /8 reconnects in a row .* 8 refused/);
  assert.equal(checks["stream-reconnect-backoff"]?.status, "fail");
  assert.match(checks["stream-reconnect-backoff"]!.message, /no backoff/);
});

test("a fetch client whose waits between 409s shrink fails stream-reconnect-backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "conflict_409", refusals: 3, retryMs: 0 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const waits = [800, 800, 200];
  await scripted(session.mcpUrl, sessionId, 4, (m) => ({ lastEventId: latestId(m), waitMs: waits[m.length - 1]! }));
  const { checks } = await checksAfterGets(session.id, 4);
  assert.equal(checks["stream-reconnect-backoff"]?.status, "fail");
  assert.match(checks["stream-reconnect-backoff"]!.message, /the waits between refused reconnects shrank/);
  assert.equal(checks["stream-reconnect-bounded"]?.status, "pass");
});

test("a fetch client that reconnects before the stream's retry: fails stream-reconnect-backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "graceful", streams: 2, retryMs: 1_500 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  await scripted(session.mcpUrl, sessionId, 3, (m) => ({ lastEventId: latestId(m), waitMs: 150 }));
  const { checks } = await checksAfterGets(session.id, 3);
  assert.equal(checks["stream-reconnect-backoff"]?.status, "fail");
  assert.match(checks["stream-reconnect-backoff"]!.message, /sooner than the stream's retry: 1500/);
  assert.equal(checks["stream-resumed-latest-id"]?.status, "pass");
});

test("a fetch client that resumes with the first stream's id after the resumed stream sent a newer one fails stream-resumed-latest-id", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "resume_cut_after_id", retryMs: 100 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 4, (m) => ({ lastEventId: m[0]!.ids.at(-1), waitMs: 150 }));
  assert.notEqual(met[1]!.ids.at(-1), met[0]!.ids.at(-1), "the resumed stream sent a new id");
  const { checks } = await checksAfterGets(session.id, 4);
  assert.equal(checks["stream-resumed-latest-id"]?.status, "fail");
  assert.match(checks["stream-resumed-latest-id"]!.message, /an earlier event id; the latest it was sent is/);
});

test("a fetch client that reconnects in a tight loop to empty streams is warned by stream-reconnect-bounded and fails backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "empty", streams: 13 });
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const met = await scripted(session.mcpUrl, sessionId, 14, () => ({ waitMs: 0 }));
  assert.equal(met.at(-1)!.status, 405);
  const { checks } = await checksAfterGets(session.id, 14);
  assert.equal(checks["stream-reconnect-bounded"]?.status, "warning");
  assert.match(checks["stream-reconnect-bounded"]!.message, /12 reconnects in a row .* 0 refused, 12 empty/);
  assert.equal(checks["stream-reconnect-backoff"]?.status, "fail");
});

// ---- 2026-07-28: subscriptions/listen ----

test("2026-07-28: a client that listens again after a dropped listen and backs off between 503s passes bounded and backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "reconnect_5xx", refusals: 2 });
  const met = await relisten(session.mcpUrl, 4, (attempt) => 150 * 2 ** attempt);
  assert.deepEqual(met.map((m) => [m.status, m.messages, m.dropped]), [
    [200, ["notifications/subscriptions/acknowledged"], true],
    [503, [], false],
    [503, [], false],
    [200, ["notifications/subscriptions/acknowledged", "result complete"], false],
  ]);
  const { checks } = await checksAfterListens(session.id, 4);
  assert.deepEqual(statuses(checks), { "stream-reconnect-bounded": "pass", "stream-reconnect-backoff": "pass" });
});

test("2026-07-28: a client that listens again in a tight loop to 503s fails stream-reconnect-bounded and stream-reconnect-backoff", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "reconnect_5xx", refusals: 8 });
  await relisten(session.mcpUrl, 9, () => 0);
  const { checks } = await checksAfterListens(session.id, 9);
  assert.deepEqual(statuses(checks), { "stream-reconnect-bounded": "fail", "stream-reconnect-backoff": "fail" });
});

test("2026-07-28: the variants without a meaning there (conflict_409) leave subscriptions/listen alone: the fault never fires", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "conflict_409" });
  const controller = new AbortController();
  const res = await postModern(session.mcpUrl, 1, "subscriptions/listen", { notifications: { toolsListChanged: true } }, { signal: controller.signal });
  assert.equal(res.status, 200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /notifications\/subscriptions\/acknowledged/);
  controller.abort();
  await reader.cancel().catch(() => undefined);
  const { entries } = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal?limit=10`)).json()) as { entries: JournalEntry[] };
  assert.equal(entries.filter((e) => e.fault !== undefined).length, 0);
});

test("a session with an unknown variant is refused with 400 naming params.variant", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "streams.listen_close", params: { variant: "sideways" } }),
  });
  assert.equal(res.status, 400);
  const { error } = (await res.json()) as { error: { issues: { path: string }[] } };
  assert.deepEqual(error.issues.map((i) => i.path), ["params.variant"]);
});

test("a GET stream with an Mcp-Session-Id the server does not know, or has ended, gets 404 and no stream", async () => {
  const session = await createSession(server, "streams.listen_close", { variant: "empty_id" });
  const get = (id: string) => fetch(session.mcpUrl, { headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": VERSION } });
  const unknown = await get("no-such-mcp-session");
  assert.equal(unknown.status, 404);
  assert.match(await unknown.text(), /Session not found/);
  const { sessionId } = await legacySession(session.mcpUrl, VERSION);
  const ended = await fetch(session.mcpUrl, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION } });
  assert.equal(ended.status, 204);
  const after = await get(sessionId);
  assert.equal(after.status, 404);
  await after.arrayBuffer();
  // Neither counted as a GET of the scenario: the next real client still gets the first stream.
  const fresh = await legacySession(session.mcpUrl, VERSION);
  const met = await getStream(session.mcpUrl, fresh.sessionId);
  assert.equal(met.ids.length, 3, "empty_id's first stream (the priming id, one event, one empty id), not its second");
});
