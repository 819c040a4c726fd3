import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { streamText } from "../helpers/sse.ts";

// The journal: what an entry holds, redaction, caps with a visible marker, retention by count and by age,
// filters and cursor pages, the JSONL and HAR exports (the HAR loads back into /classify), and the live stream.

type Json = Record<string, any>;

let server: TestServer;
/** A server whose journal keeps 5 entries of at most 120 characters per body, for 0.0005 h (1.8 s). */
let small: TestServer;
before(async () => {
  server = await startServer();
  small = await startServer({ JOURNAL_MAX_ENTRIES: "5", JOURNAL_BODY_CAP: "120", JOURNAL_MAX_AGE_HOURS: "0.0005" });
});
after(async () => {
  await server?.close();
  await small?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The journal records an exchange after its body ended; poll until `count` entries are there. */
async function journal(base: TestServer, id: string, count: number, query = ""): Promise<Json[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await fetch(`${base.url}/api/sessions/${id}/journal?limit=1000${query}`);
    assert.equal(res.status, 200);
    const entries = ((await res.json()) as { entries: Json[] }).entries;
    if (entries.length >= count) return entries;
    await sleep(50);
  }
  throw new Error(`the journal of ${id} never reached ${count} entries`);
}

async function echo(mcpUrl: string, id: number, text: string, headers: Record<string, string> = {}) {
  const res = await postModern(mcpUrl, id, "tools/call", { name: "echo", arguments: { text } }, { headers });
  return { res, body: await res.text() };
}

test("an entry holds the request and response, the JSON-RPC id and method, the era, the version, clientInfo and the verdict", async () => {
  const session = await createSession(server, "baseline");
  const { res } = await echo(session.mcpUrl, 41, "hello journal");
  assert.equal(res.status, 200);
  const [entry] = await journal(server, session.id, 1);
  assert.ok(entry);
  assert.equal(entry.seq, 1);
  assert.equal(entry.request.method, "POST");
  assert.equal(entry.request.url, `/s/${session.id}/mcp`);
  assert.match(entry.request.body.text, /hello journal/);
  assert.equal(entry.response.status, 200);
  assert.match(entry.response.body.text, /"hello journal"/);
  assert.deepEqual(entry.rpc, { id: 41, method: "tools/call", kind: "request", toolName: "echo" });
  assert.equal(entry.era, "modern");
  assert.equal(entry.protocolVersion, "2026-07-28");
  assert.equal(entry.clientInfo.name, "faultline-test");
  assert.equal(entry.scenario, "baseline");
  assert.equal(entry.fault, undefined);
  assert.equal(entry.verdict.outcome, "TOOL_SUCCESS");
  assert.ok(Number.isInteger(entry.durationMs) && entry.durationMs >= 0);
  assert.ok(!Number.isNaN(Date.parse(entry.time)));
});

test("an entry names the fault the scenario applied and the rule that chose it, with the verdict on the faulted response", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], retryAfter: 2 });
  await echo(session.mcpUrl, 1, "a");
  await echo(session.mcpUrl, 2, "b");
  const [first, second] = await journal(server, session.id, 2);
  assert.equal(first?.fault.kind, "http_status");
  assert.equal(first?.fault.detail.status, 503);
  assert.match(first?.fault.rule, /statusCodes\[0\] = 503/);
  assert.equal(first?.verdict.outcome, "HTTP_ERROR");
  assert.equal(first?.verdict.retry.afterMs, 2000);
  assert.equal(second?.fault, undefined);
  assert.equal(second?.verdict.outcome, "TOOL_SUCCESS");
});

test("legacy entries carry the MCP session id, the negotiated version and the clientInfo of initialize", async () => {
  const session = await createSession(server, "baseline");
  const { sessionId, post } = await legacySession(session.mcpUrl, "2025-06-18");
  await (await post({ id: 9, method: "ping" })).text();
  const entries = await journal(server, session.id, 3);
  const ping = entries.find((e) => e.rpc.method === "ping");
  assert.equal(ping?.era, "legacy");
  assert.equal(ping?.protocolVersion, "2025-06-18");
  assert.equal(ping?.mcpSessionId, sessionId);
  assert.equal(ping?.clientInfo.name, "faultline-test");
  const notification = entries.find((e) => e.rpc.method === "notifications/initialized");
  assert.equal(notification?.rpc.kind, "notification");
  assert.equal(notification?.verdict.outcome, "NOTIFICATION_ACCEPTED");
});

test("Authorization, Cookie and token-like headers are redacted, and client IP headers are not stored", async () => {
  const session = await createSession(server, "baseline");
  await echo(session.mcpUrl, 1, "secrets", {
    authorization: "Bearer sk-live-1234567890",
    cookie: "sid=abcdef",
    "x-upstream-token": "tok_987",
    "x-forwarded-for": "203.0.113.7",
    "x-trace": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
  });
  const [entry] = await journal(server, session.id, 1);
  const headers = entry?.request.headers as Record<string, string>;
  assert.equal(headers.authorization, "Bearer [redacted]");
  assert.equal(headers.cookie, "[redacted]");
  assert.equal(headers["x-upstream-token"], "[redacted]");
  assert.equal(headers["x-trace"], "[redacted]");
  assert.equal(headers["x-forwarded-for"], undefined);
  assert.equal(headers["mcp-method"], "tools/call");
  const raw = JSON.stringify(entry);
  for (const secret of ["sk-live-1234567890", "abcdef", "tok_987", "203.0.113.7", "c2lnbmF0dXJl"]) assert.ok(!raw.includes(secret), secret);
});

test("a body over the cap is cut in the journal with a visible marker, while the client still gets all of it", async () => {
  const session = await createSession(small, "baseline");
  const long = "x".repeat(500);
  const { res, body } = await echo(session.mcpUrl, 1, long);
  assert.equal(res.status, 200);
  assert.ok(body.includes(long), "the client's response is not truncated");
  const [entry] = await journal(small, session.id, 1);
  for (const side of [entry?.request.body, entry?.response.body]) {
    assert.equal(side.truncated, true);
    assert.ok(side.text.endsWith("…[truncated by Faultline]"), side.text);
    assert.equal(side.text.length, 120 + "…[truncated by Faultline]".length);
    assert.ok(side.bytes > 500);
  }
  // The verdict is computed on the whole body, not the cut one.
  assert.equal(entry?.verdict.outcome, "TOOL_SUCCESS");
});

test("retention by count keeps the newest exchanges and drops the oldest first", async () => {
  const session = await createSession(small, "baseline");
  for (let id = 1; id <= 8; id++) await echo(session.mcpUrl, id, `n${id}`);
  let entries: Json[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    entries = ((await (await fetch(`${small.url}/api/sessions/${session.id}/journal?limit=100`)).json()) as { entries: Json[] }).entries;
    if (entries.at(-1)?.rpc.id === 8) break;
    await sleep(50);
  }
  assert.deepEqual(entries.map((e) => e.rpc.id), [4, 5, 6, 7, 8]);
});

test("retention by age drops exchanges older than the limit", async () => {
  const session = await createSession(small, "baseline");
  await echo(session.mcpUrl, 1, "old");
  await journal(small, session.id, 1);
  await sleep(2500); // the limit is 0.0005 h = 1.8 s
  await echo(session.mcpUrl, 2, "new");
  let ids: unknown[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    ids = ((await (await fetch(`${small.url}/api/sessions/${session.id}/journal`)).json()) as { entries: Json[] }).entries.map((e) => e.rpc.id);
    if (ids.includes(2)) break;
    await sleep(50);
  }
  assert.deepEqual(ids, [2]);
});

test("filters by method and outcome, since-seq and cursor pages return every entry once", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  for (let id = 1; id <= 5; id++) await echo(session.mcpUrl, id, `p${id}`);
  await (await postModern(session.mcpUrl, 6, "tools/list")).text();
  const all = await journal(server, session.id, 6);
  assert.deepEqual(all.map((e) => e.seq), [1, 2, 3, 4, 5, 6]);

  const byMethod = await journal(server, session.id, 1, "&method=tools/list");
  assert.deepEqual(byMethod.map((e) => e.rpc.method), ["tools/list"]);
  const failed = await journal(server, session.id, 1, "&outcome=HTTP_ERROR");
  assert.deepEqual(failed.map((e) => e.seq), [1]);
  const since = await journal(server, session.id, 1, "&since=4");
  assert.deepEqual(since.map((e) => e.seq), [5, 6]);

  const seen: number[] = [];
  let cursor: string | undefined;
  do {
    const page = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal?limit=2${cursor ? `&cursor=${cursor}` : ""}`)).json()) as { entries: Json[]; nextCursor?: string };
    assert.ok(page.entries.length <= 2);
    seen.push(...page.entries.map((e) => e.seq as number));
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);

  const newest = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal?order=desc&limit=2`)).json()) as { entries: Json[] };
  assert.deepEqual(newest.entries.map((e) => e.seq), [6, 5]);
});

test("a bad journal query gets 400 naming the parameter, and an unknown session 404 on the journal, its exports, its stream and the checks", async () => {
  const session = await createSession(server, "baseline");
  for (const [query, path] of [["limit=0", "query.limit"], ["outcome=FINE", "query.outcome"], ["format=xml", "query.format"], ["cursor=abc", "query.cursor"], ["colour=red", "query"]] as const) {
    const res = await fetch(`${server.url}/api/sessions/${session.id}/journal?${query}`);
    assert.equal(res.status, 400, query);
    const body = (await res.json()) as { error: { issues: { path: string; rule: string }[] } };
    assert.ok(body.error.issues.some((i) => i.path.startsWith(path) && i.rule), `${query}: ${JSON.stringify(body)}`);
  }
  for (const path of ["journal", "journal?format=har", "journal/stream", "checks"]) {
    assert.equal((await fetch(`${server.url}/api/sessions/no-such-session/${path}`)).status, 404, path);
  }
});

test("the JSONL export has one parseable entry per line", async () => {
  const session = await createSession(server, "baseline");
  for (let id = 1; id <= 3; id++) await echo(session.mcpUrl, id, `l${id}`);
  await journal(server, session.id, 3);
  const res = await fetch(`${server.url}/api/sessions/${session.id}/journal?format=jsonl`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /jsonl/);
  const lines = (await res.text()).trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as Json).seq), [1, 2, 3]);
});

test("the HAR export loads back into POST /classify and gets the same verdicts as the journal", async () => {
  const session = await createSession(server, "script", {
    rules: [
      { match: { method: "tools/call", nth: 1 }, fault: { kind: "http_status", status: 503 } },
      { match: { method: "tools/call", nth: 2 }, fault: { kind: "tool_error", text: "nope" } },
    ],
  });
  for (let id = 1; id <= 3; id++) await echo(session.mcpUrl, id, `h${id}`);
  const entries = await journal(server, session.id, 3);
  const har = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal?format=har`)).json()) as Json;
  assert.equal(har.log.version, "1.2");
  assert.equal(har.log.entries.length, 3);
  const classified = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(har) });
  assert.equal(classified.status, 200);
  const verdicts = ((await classified.json()) as { entries: Json[] }).entries;
  assert.deepEqual(verdicts.map((v) => v.verdict.outcome), ["HTTP_ERROR", "TOOL_ERROR", "TOOL_SUCCESS"]);
  assert.deepEqual(verdicts.map((v) => v.verdict.outcome), entries.map((e) => e.verdict.outcome));
  assert.deepEqual(verdicts.map((v) => v.id), [1, 2, 3]);
});

test("the live stream replays entries after `since` and then sends each new entry as it is recorded", async () => {
  const session = await createSession(server, "baseline");
  await echo(session.mcpUrl, 1, "before");
  await journal(server, session.id, 1);
  const stop = new AbortController();
  const res = await fetch(`${server.url}/api/sessions/${session.id}/journal/stream?since=0`, { signal: stop.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const stream = streamText(res.body as ReadableStream<Uint8Array>);
  try {
    assert.ok(await stream.until("id: 1\n"), stream.text);
    await echo(session.mcpUrl, 2, "live");
    assert.ok(await stream.until("id: 2\n"), stream.text);
    const events = stream.text.split("\n\n").filter((block) => block.includes("event: entry"));
    const entries = events.map((block) => JSON.parse(block.split("\n").find((line) => line.startsWith("data: "))!.slice(6)) as Json);
    assert.deepEqual(entries.map((e) => e.rpc.id), [1, 2]);
    assert.match(entries[1]?.request.body.text, /live/);
  } finally {
    stop.abort();
    await stream.cancel();
  }
});
