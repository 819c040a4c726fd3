import { after, before, test } from "node:test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import assert from "node:assert/strict";
import { MODERN, useServer } from "../helpers/server.ts";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { startSessionfulUpstream } from "../helpers/upstream-v1.ts";
import { call, createProxied, events, journalWhen } from "./helpers.ts";

// The proxy on the wire, with raw HTTP: what reaches the upstream, what comes back, and what the journal keeps.

const server = useServer();
let upstream: Upstream;
let sseUpstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "json" });
  sseUpstream = await startUpstream({ responseMode: "sse" });
});
after(async () => {
  await upstream.close();
  await sseUpstream.close();
});

type Json = Record<string, any>;

async function session(body: Json): Promise<{ id: string; mcpUrl: string }> {
  const { status, json } = await createProxied(server.url, body);
  assert.equal(status, 201, JSON.stringify(json));
  return json as { id: string; mcpUrl: string };
}

test("errors.http_status_sequence [503, 200] over a real upstream: the 503 is Faultline's, and the call reaches the upstream exactly once", async () => {
  const s = await session({ scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200], countMethods: ["tools/call"] }, upstream: upstream.url });
  const before = upstream.calls.charge ?? 0;
  const first = await call(s.mcpUrl, 1, "charge", { cents: 500 });
  assert.equal(first.status, 503);
  await first.body?.cancel();
  assert.equal(upstream.calls.charge ?? 0, before);
  const second = await call(s.mcpUrl, 2, "charge", { cents: 500 });
  assert.equal(second.status, 200);
  assert.equal(((await second.json()) as Json).result.content[0].text, `charged 500 (charge #${before + 1})`);
  assert.equal(upstream.calls.charge, before + 1);
  const entries = await journalWhen(server.url, s.id, (all) => all.length === 2);
  assert.deepEqual(entries.map((e) => [e.response.status, e.proxied?.mode, e.fault?.kind]), [[503, "replace", "http_status"], [200, "forward", undefined]]);
  assert.deepEqual(entries.map((e) => e.effects), ["none", "ran"]);
});

test("an upstream SSE stream cut by streams.cut_before_response keeps every notification, in order, and loses exactly the final response", async () => {
  const s = await session({ scenario: "streams.cut_before_response", upstream: sseUpstream.url });
  const res = await call(s.mcpUrl, 3, "report", { steps: 3 });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const got = events(await res.text());
  assert.deepEqual(got.map((m) => m.params?.data), ["step 1 of 3", "step 2 of 3", "step 3 of 3"]);
  assert.ok(got.every((m) => m.method === "notifications/message" && !("id" in m)));
  // The upstream did answer: its stream, as the journal keeps it, ends with the result the client never got.
  const [entry] = await journalWhen(server.url, s.id, (all) => all.length === 1);
  const upstreamSide = events(entry!.proxied?.response?.body?.text ?? "");
  assert.deepEqual(upstreamSide.at(-1)?.result?.content, [{ type: "text", text: "3 steps done" }]);
  assert.equal(upstreamSide.length, 4);
});

test("without a fault an upstream SSE stream is passed on as it came, event for event", async () => {
  const s = await session({ scenario: "baseline", upstream: sseUpstream.url });
  const res = await call(s.mcpUrl, 4, "report", { steps: 2 });
  const got = events(await res.text());
  assert.deepEqual(got.map((m) => m.params?.data ?? m.result?.content?.[0]?.text), ["step 1 of 2", "step 2 of 2", "2 steps done"]);
});

test("headers pass end to end except Host, cookies, the platform's cf-* and Authorization; the 2026-07-28 headers go as sent", async () => {
  const s = await session({ scenario: "baseline", upstream: upstream.url });
  const seen = upstream.requests.length;
  const res = await call(s.mcpUrl, 5, "lookup", { key: "h" }, { cookie: "faultline_session=secret", authorization: "Bearer client-token", "x-trace": "t-1" });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  // The proxy also reads the upstream's tools/list with the same headers: take the call itself.
  const got = upstream.requests.slice(seen).find((h) => h["mcp-method"] === "tools/call")!;
  assert.equal(got["mcp-protocol-version"], MODERN);
  assert.equal(got["mcp-method"], "tools/call");
  assert.equal(got["mcp-name"], "lookup");
  assert.equal(got["x-trace"], "t-1");
  assert.match(got.host ?? "", /^127\.0\.0\.1:\d+$/);
  assert.notEqual(got.host, new URL(server.url).host);
  for (const name of ["cookie", "authorization", "cf-connecting-ip"]) assert.equal(got[name], undefined, name);
});

test("with forwardAuthorization the client's Authorization goes upstream, and the journal still redacts it on both sides", async () => {
  const s = await session({ scenario: "baseline", upstream: upstream.url, forwardAuthorization: true });
  const seen = upstream.requests.length;
  const res = await call(s.mcpUrl, 6, "lookup", { key: "a" }, { authorization: "Bearer static-secret-123" });
  await res.body?.cancel();
  assert.equal(upstream.requests.slice(seen).find((h) => h["mcp-method"] === "tools/call")!.authorization, "Bearer static-secret-123");
  const [entry] = await journalWhen(server.url, s.id, (all) => all.length === 1);
  assert.doesNotMatch(JSON.stringify(entry), /static-secret-123/);
  assert.ok(entry!.proxied?.request?.headers.authorization, "the upstream request names the header, redacted");
});

test("a scenario with tools of its own is refused in front of an upstream, at creation and when a proxied session changes scenario", async () => {
  const refused = await createProxied(server.url, { scenario: "elicitation.approval", upstream: upstream.url });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.error.issues[0].path, "scenario");
  assert.equal(refused.json.error.issues[0].rule, "unsupported_in_proxy_mode");
  assert.match(refused.json.error.message, /serves tools of its own/);
  const s = await session({ scenario: "baseline", upstream: upstream.url });
  const change = await fetch(`${server.url}/api/sessions/${s.id}/scenario`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "conformance" }) });
  assert.equal(change.status, 400);
  assert.equal(((await change.json()) as Json).error.issues[0].rule, "unsupported_in_proxy_mode");
});

test("forwardAuthorization without an upstream, and an upstream that is not a URL, are refused naming the field", async () => {
  const lonely = await createProxied(server.url, { scenario: "baseline", forwardAuthorization: true });
  assert.equal(lonely.status, 400);
  assert.deepEqual([lonely.json.error.issues[0].path, lonely.json.error.issues[0].rule], ["forwardAuthorization", "needs_upstream"]);
  const bad = await createProxied(server.url, { scenario: "baseline", upstream: "not a url" });
  assert.equal(bad.status, 400);
  assert.deepEqual([bad.json.error.issues[0].path, bad.json.error.issues[0].rule], ["upstream", "url"]);
});

test("a sessionful 2025-11-25 upstream's Mcp-Session-Id passes both ways: issued on initialize, sent on every call, ended by DELETE", async () => {
  const sessionful = await startSessionfulUpstream();
  try {
    const s = await session({ scenario: "baseline", upstream: sessionful.url });
    const transport = new TransportV1(new URL(s.mcpUrl));
    const client = new ClientV1({ name: "proxy-v1-sessionful", version: "0.0.0" });
    await client.connect(transport);
    assert.equal(sessionful.issued.length, 1);
    assert.equal(transport.sessionId, sessionful.issued[0]);
    const result = await client.callTool({ name: "lookup", arguments: { key: "s" } });
    assert.deepEqual(result.content, [{ type: "text", text: "record s" }]);
    // After initialize, every request (the initialized notification, the call, the proxy's own tools/list) names it.
    const later = sessionful.requests.slice(1).map((h) => h["mcp-session-id"]);
    assert.ok(later.length >= 2);
    assert.deepEqual(new Set(later), new Set([sessionful.issued[0]]));
    await transport.terminateSession();
    await client.close();
    assert.deepEqual(sessionful.ended, sessionful.issued);
    const entries = await journalWhen(server.url, s.id, (all) => all.some((e) => e.request.method === "DELETE"));
    assert.ok(entries.filter((e) => e.rpc.method === "tools/call").every((e) => e.mcpSessionId === sessionful.issued[0]));
  } finally {
    await sessionful.close();
  }
});

test("an answer an alter fault cannot read as one JSON-RPC message (broken JSON, plain text) goes on as it came, and the journal says why", async () => {
  const odd = createServer((req, res) => {
    const json = req.headers["mcp-name"] === "lookup";
    res.writeHead(200, { "content-type": json ? "application/json" : "text/plain" }).end(json ? '{"jsonrpc": "2.0", "id": 9, "result": {' : "plain words");
  });
  await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
  try {
    const s = await session({ scenario: "results.content_not_array", upstream: `http://127.0.0.1:${(odd.address() as AddressInfo).port}/mcp` });
    const broken = await call(s.mcpUrl, 9, "lookup", { key: "b" });
    assert.equal(await broken.text(), '{"jsonrpc": "2.0", "id": 9, "result": {');
    const plain = await call(s.mcpUrl, 10, "charge", { cents: 1 });
    assert.equal(await plain.text(), "plain words");
    const entries = await journalWhen(server.url, s.id, (all) => all.filter((e) => e.rpc.method === "tools/call").length === 2);
    for (const e of entries.filter((x) => x.rpc.method === "tools/call")) {
      assert.equal(e.proxied?.mode, "alter");
      assert.match(e.proxied?.note ?? "", /could not change it: passed on as it came/);
    }
  } finally {
    odd.closeAllConnections();
    odd.close();
  }
});
