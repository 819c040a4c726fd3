import { test } from "node:test";
import assert from "node:assert/strict";
import { classify, parseSse, type Verdict } from "../../src/classify/index.ts";
import { createSession, legacySession, MODERN, postModern, useServer } from "../helpers/server.ts";

const server = useServer();

const ERAS = ["modern", "legacy"] as const;
type Era = (typeof ERAS)[number];
const LEGACY = "2025-11-25";
const ECHO = { name: "echo", arguments: { text: "hello" } };
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };

interface Client {
  mcpUrl: string;
  version: string;
  sessionId?: string;
  send(id: number, method: string, params?: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
}

/** A session with the scenario, spoken to in one era (legacy: after the initialize handshake). */
async function connect(era: Era, scenario: string, params: Record<string, unknown> = {}): Promise<Client> {
  const { mcpUrl } = await createSession(server, scenario, params);
  if (era === "modern") return { mcpUrl, version: MODERN, send: (id, method, p = {}, headers) => postModern(mcpUrl, id, method, p, { headers }) };
  const { sessionId, post } = await legacySession(mcpUrl, LEGACY);
  return { mcpUrl, version: LEGACY, sessionId, send: (id, method, p = {}, headers) => post({ id, method, params: p }, headers) };
}

/** The project's classifier on what came over the wire. */
function verdictOf(client: Client, request: { id: number; method: string }, res: Response, body: string, now?: number): Verdict {
  return classify(
    {
      request: { headers: { "mcp-protocol-version": client.version }, body: { jsonrpc: "2.0", ...request } },
      response: { status: res.status, headers: Object.fromEntries(res.headers), body },
    },
    now === undefined ? {} : { now },
  );
}

const TIMEOUT = Symbol("timeout");
/** Resolves with TIMEOUT if `promise` has not settled after `ms`; the promise itself keeps running. */
function deadline<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  return Promise.race([promise, new Promise<typeof TIMEOUT>((resolve) => setTimeout(() => resolve(TIMEOUT), ms))]);
}

/** Reads a body to its end, keeping the chunks as they arrived. */
async function chunksOf(res: Response): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for await (const chunk of res.body ?? []) chunks.push(decoder.decode(chunk, { stream: true }));
  return chunks;
}

/** The JSON-RPC messages of the message events of an SSE body. */
function sseMessages(text: string): Record<string, unknown>[] {
  return parseSse(text)
    .events.filter((e) => e.type === "message" && e.data.trim() !== "")
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

for (const era of ERAS) {
  test(`timeouts.stall_before_headers holds back the headers of a ${era} tools/call until the stall ends, then answers it`, async () => {
    const client = await connect(era, "timeouts.stall_before_headers", { ms: 700 });
    const pending = client.send(1, "tools/call", ECHO);
    assert.equal(await deadline(pending, 150), TIMEOUT, "headers arrived before the stall ended");
    const res = await pending;
    const body = await res.text();
    assert.equal(res.status, 200);
    assert.equal((JSON.parse(body) as { id: number }).id, 1);
    assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "TOOL_SUCCESS");
  });

  test(`timeouts.stall_mid_stream sends ${era} SSE headers and a first comment, then nothing until the stall ends, then the response`, async () => {
    const client = await connect(era, "timeouts.stall_mid_stream", { ms: 700 });
    const res = await client.send(1, "tools/call", ECHO);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    assert.match(decoder.decode(first.value), /^:/, "the first bytes are an SSE comment");
    const next = reader.read();
    assert.equal(await deadline(next, 150), TIMEOUT, "more bytes arrived before the stall ended");
    let rest = "";
    for (let chunk = await next; !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value, { stream: true });
    const [response] = sseMessages(rest);
    assert.equal(response?.id, 1);
    assert.ok(response?.result, "the response arrives after the stall");
    assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, decoder.decode(first.value) + rest).outcome, "TOOL_SUCCESS");
  });

  test(`timeouts.slow_drip delivers a ${era} JSON response in many small chunks that add up to the correct message`, async () => {
    const client = await connect(era, "timeouts.slow_drip", { chunkBytes: 16, intervalMs: 20 });
    // Without this, the local edge emulation gzips application/json and the chunks arrive as one.
    const res = await client.send(1, "tools/call", ECHO, { "accept-encoding": "identity" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.equal(res.headers.get("content-length"), null);
    const chunks = await chunksOf(res);
    assert.ok(chunks.length > 1, `expected several chunks, got ${chunks.length}`);
    const body = chunks.join("");
    assert.deepEqual((JSON.parse(body) as { result: { content: unknown } }).result.content, [{ type: "text", text: "hello" }]);
    assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "TOOL_SUCCESS");
  });

  test(`timeouts.never_complete keeps a ${era} SSE stream alive with comments only, then closes it with no response`, async () => {
    const client = await connect(era, "timeouts.never_complete", { ms: 500, keepAliveMs: 100 });
    const res = await client.send(1, "tools/call", ECHO);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const body = (await chunksOf(res)).join("");
    assert.ok((body.match(/^: keep-alive$/gm) ?? []).length >= 2, body);
    assert.equal(parseSse(body).events.length, 0, "no event was sent");
    assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "STREAM_INCOMPLETE");
  });

  test(`timeouts.* leave ${era} tools/list alone by default: it is answered while a tools/call is stalled`, async () => {
    const client = await connect(era, "timeouts.stall_before_headers", { ms: 700 });
    let callAnswered = false;
    const call = client.send(1, "tools/call", ECHO).then((res) => ((callAnswered = true), res));
    const list = await client.send(2, "tools/list");
    assert.equal(list.status, 200);
    assert.equal(callAnswered, false, "the stalled call was answered first");
    assert.equal((await call).status, 200);
  });

  test(`streams.cut_before_response ends the ${era} SSE stream with no response although the call ran`, async () => {
    const client = await connect(era, "streams.cut_before_response", { nth: 1 });
    const res = await client.send(1, "tools/call", ORDER);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const body = await res.text();
    assert.deepEqual(sseMessages(body), []);
    assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "STREAM_INCOMPLETE");
    const second = (await (await client.send(2, "tools/call", ORDER)).json()) as { result: { structuredContent: { orderNumber: number } } };
    assert.equal(second.result.structuredContent.orderNumber, 2, "the cut call placed order #1");
  });

  test(`timeouts.slow_drip drips one SSE event when a ${era} session answers with responseMode sse`, async () => {
    const client = await connect(era, "timeouts.slow_drip", { chunkBytes: 32, intervalMs: 10, responseMode: "sse" });
    const res = await client.send(1, "tools/call", ECHO);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const chunks = await chunksOf(res);
    assert.ok(chunks.length > 1, `expected several chunks, got ${chunks.length}`);
    assert.equal(sseMessages(chunks.join(""))[0]?.id, 1);
  });
}

test("streams.cut_with_resume primes a legacy stream with an event id and retry, cuts it, and a Last-Event-ID GET delivers the response once", async () => {
  const client = await connect("legacy", "streams.cut_with_resume", { retryMs: 700 });
  const res = await client.send(1, "tools/call", ECHO);
  assert.equal(res.status, 200);
  const body = await res.text();
  const sse = parseSse(body);
  const [priming] = sse.events;
  assert.equal(sse.events.length, 1, body);
  assert.equal(priming?.data, "");
  assert.equal(priming?.retry, 700);
  assert.ok(priming?.id);
  assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "STREAM_INCOMPLETE");

  const resume = () =>
    fetch(client.mcpUrl, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming?.id ?? "",
        "mcp-session-id": client.sessionId ?? "",
        "mcp-protocol-version": LEGACY,
      },
    });
  const resumed = await resume();
  assert.equal(resumed.status, 200);
  assert.equal(resumed.headers.get("content-type"), "text/event-stream");
  const resumedBody = await resumed.text();
  const [message] = sseMessages(resumedBody);
  assert.deepEqual((message?.result as { content: unknown }).content, [{ type: "text", text: "hello" }]);
  assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, resumed, resumedBody).outcome, "TOOL_SUCCESS");
  assert.equal((await resume()).status, 405, "the kept response is delivered only once");
});

test("streams.cut_with_resume behaves like a plain cut in 2026-07-28: no event id, no retry, and a Last-Event-ID GET gets 405", async () => {
  const client = await connect("modern", "streams.cut_with_resume");
  const res = await client.send(1, "tools/call", ECHO);
  const body = await res.text();
  assert.equal(res.status, 200);
  assert.doesNotMatch(body, /^(id|retry):/m);
  assert.equal(verdictOf(client, { id: 1, method: "tools/call" }, res, body).outcome, "STREAM_INCOMPLETE");
  const get = await fetch(client.mcpUrl, { headers: { accept: "text/event-stream", "last-event-id": "anything" } });
  assert.equal(get.status, 405);
});

test("errors.status_per_method gives each listed method its status, with Retry-After, and leaves other methods alone", async () => {
  const client = await connect("modern", "errors.status_per_method", { statuses: { "tools/list": 500, "tools/call": 503 }, retryAfter: 2, body: "text" });
  const list = await client.send(1, "tools/list");
  assert.equal(list.status, 500);
  assert.match(list.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(list.headers.get("retry-after"), "2");
  await list.arrayBuffer();

  const call = await client.send(2, "tools/call", ECHO);
  const body = await call.text();
  assert.equal(call.status, 503);
  const verdict = verdictOf(client, { id: 2, method: "tools/call" }, call, body);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.retry.decision, "conditional");
  assert.equal(verdict.retry.afterMs, 2000);

  const discover = await client.send(3, "server/discover");
  assert.equal(discover.status, 200);
  await discover.arrayBuffer();
});

test("errors.status_per_method lets a legacy initialize through when only tools/list is listed", async () => {
  const client = await connect("legacy", "errors.status_per_method", { statuses: { "tools/list": 500 } });
  const list = await client.send(1, "tools/list");
  const body = await list.text();
  assert.equal(list.status, 500);
  assert.equal(body, "");
  assert.equal(verdictOf(client, { id: 1, method: "tools/list" }, list, body).outcome, "HTTP_ERROR");
  const call = await client.send(2, "tools/call", ECHO);
  assert.equal(call.status, 200);
  await call.arrayBuffer();
});

for (const era of ERAS) {
  test(`ratelimit.retry_after_seconds answers the first ${era} tools/calls with 429 and Retry-After seconds, then succeeds`, async () => {
    const client = await connect(era, "ratelimit.retry_after_seconds", { times: 2, seconds: 3 });
    for (const id of [1, 2]) {
      const res = await client.send(id, "tools/call", ECHO);
      const body = await res.text();
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("retry-after"), "3");
      const verdict = verdictOf(client, { id, method: "tools/call" }, res, body);
      assert.equal(verdict.outcome, "HTTP_ERROR");
      assert.equal(verdict.retry.decision, "conditional");
      assert.equal(verdict.retry.afterMs, 3000);
    }
    const list = await client.send(3, "tools/list");
    assert.equal(list.status, 200, "tools/list is not limited");
    await list.arrayBuffer();
    const ok = await client.send(4, "tools/call", ECHO);
    assert.equal(ok.status, 200);
    await ok.arrayBuffer();
  });

  test(`ratelimit.retry_after_date answers a ${era} tools/call with 429 and a Retry-After HTTP-date the given seconds ahead`, async () => {
    const client = await connect(era, "ratelimit.retry_after_date", { seconds: 30 });
    const sent = Date.now();
    const res = await client.send(1, "tools/call", ECHO);
    const body = await res.text();
    assert.equal(res.status, 429);
    const retryAfter = res.headers.get("retry-after") ?? "";
    assert.match(retryAfter, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/, "an IMF-fixdate");
    const dateHeader = res.headers.get("date");
    const now = dateHeader ? Date.parse(dateHeader) : sent;
    const aheadMs = Date.parse(retryAfter) - now;
    assert.ok(aheadMs > 28_000 && aheadMs <= 32_000, `Retry-After is ${aheadMs} ms ahead of ${dateHeader ?? "the client clock"}`);
    const verdict = verdictOf(client, { id: 1, method: "tools/call" }, res, body, now);
    assert.equal(verdict.outcome, "HTTP_ERROR");
    assert.equal(verdict.retry.decision, "conditional");
    assert.equal(verdict.retry.afterMs, aheadMs);
    const ok = await client.send(2, "tools/call", ECHO);
    assert.equal(ok.status, 200);
    await ok.arrayBuffer();
  });
}
