import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";

// Proxy mode on `npm run serve` (workerd with the generated config, whose network allows exactly what
// FAULTLINE_UPSTREAMS needs): the Worker's own fetch, so redirects, refused connections and silent upstreams behave
// as in production. (The in-process test harness sends a Worker's fetch through Node's fetch, which follows
// redirects and turns a refused connection into a 500.)

let served: NpmServer;
let upstream: Upstream;
let outsider: Upstream;
let redirecting: Server;
let silent: Server;
let stalling: Server;
let deadUrl: string;

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const listen = async (server: Server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

before(async () => {
  upstream = await startUpstream({ responseMode: "json" });
  outsider = await startUpstream();
  redirecting = createServer((_req, res) => res.writeHead(307, { location: "http://127.0.0.1:9/elsewhere" }).end());
  // Takes the request and never answers.
  silent = createServer(() => undefined);
  // Sends its headers and the start of a JSON body, then nothing more.
  stalling = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"jsonrpc": "2.0", "id": 5, "result": {');
  });
  const dead = createServer();
  await Promise.all([listen(redirecting), listen(silent), listen(stalling), listen(dead)]);
  deadUrl = `${origin(dead)}/mcp`;
  await new Promise<void>((resolve) => dead.close(() => resolve()));
  const list = [new URL(upstream.url).origin, origin(redirecting), origin(silent), origin(stalling), new URL(deadUrl).origin].join(",");
  served = await npmRun("serve", undefined, { FAULTLINE_UPSTREAMS: list, FAULTLINE_MAX_RESPONSE_SECONDS: "2" });
});

after(async () => {
  await served?.close();
  await upstream.close();
  await outsider.close();
  redirecting.close();
  for (const server of [silent, stalling]) {
    server.closeAllConnections();
    server.close();
  }
});

async function session(upstreamUrl: string, scenario = "baseline"): Promise<{ id: string; mcpUrl: string }> {
  const { status, json } = await createProxied(served.url, { scenario, upstream: upstreamUrl });
  assert.equal(status, 201, JSON.stringify(json));
  return json as { id: string; mcpUrl: string };
}

test("a listed upstream is reached through workerd's allow-listed network", async () => {
  const s = await session(upstream.url);
  const res = await call(s.mcpUrl, 1, "lookup", { key: "served" });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as Record<string, any>).result.content[0].text, "record served");
});

test("an upstream outside FAULTLINE_UPSTREAMS, loopback or not, is refused at creation with a 400 naming the field and the rule, and never contacted", async () => {
  for (const url of [outsider.url, "https://mcp.example.com/mcp"]) {
    const { status, json } = await createProxied(served.url, { scenario: "baseline", upstream: url });
    assert.equal(status, 400);
    assert.equal(json.error.issues[0].path, "upstream");
    assert.equal(json.error.issues[0].rule, "upstream_not_allowed");
    assert.match(json.error.message, /not in FAULTLINE_UPSTREAMS/);
  }
  assert.equal(outsider.requests.length, 0);
});

test("a redirect from the upstream is not followed: the client gets the 3xx as it came", async () => {
  const s = await session(`${origin(redirecting)}/mcp`);
  const res = await call(s.mcpUrl, 2, "lookup", { key: "r" });
  assert.equal(res.status, 307);
  assert.equal(res.headers.get("location"), "http://127.0.0.1:9/elsewhere");
});

test("an unreachable upstream gets a 502 whose JSON-RPC error names it, journalled with the reason", async () => {
  const s = await session(deadUrl);
  const res = await call(s.mcpUrl, 3, "lookup", { key: "x" });
  const body = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 502, JSON.stringify(body));
  assert.equal(body.id, 3);
  assert.equal(body.error.code, -32603);
  assert.ok(body.error.message.includes(deadUrl), body.error.message);
  assert.equal(body.error.data.upstream, deadUrl);
  const [entry] = await journalWhen(served.url, s.id, (all) => all.length === 1);
  assert.ok(entry!.proxied?.error?.includes(deadUrl));
  assert.equal(entry!.proxied?.response, undefined);
});

test("an upstream that never answers is bounded by the response deadline: 504 naming it, the entry marked cut by the deadline", async () => {
  const s = await session(`${origin(silent)}/mcp`);
  const res = await call(s.mcpUrl, 4, "lookup", { key: "slow" });
  assert.equal(res.status, 504);
  const body = (await res.json()) as Record<string, any>;
  assert.match(body.error.message, /did not answer within the 2 s response deadline/);
  const [entry] = await journalWhen(served.url, s.id, (all) => all.length === 1);
  assert.equal(entry!.response.cutByDeadline, true);
});

test("an upstream whose answer stalls mid-body is bounded by the deadline too when a fault must read it: 504 naming it", async () => {
  const s = await session(`${origin(stalling)}/mcp`, "results.content_not_array");
  const res = await call(s.mcpUrl, 5, "lookup", { key: "stalled" });
  assert.equal(res.status, 504);
  const body = (await res.json()) as Record<string, any>;
  assert.equal(body.id, 5);
  assert.match(body.error.message, /did not finish its answer within the 2 s response deadline/);
  const [entry] = await journalWhen(served.url, s.id, (all) => all.length === 1);
  assert.equal(entry!.response.cutByDeadline, true);
  assert.equal(entry!.effects, "possible");
});
