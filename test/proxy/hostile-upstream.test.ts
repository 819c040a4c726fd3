import { after, before, test } from "node:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";
import { callUpstream } from "../../src/proxy/forward.ts";
import { Deadline } from "../../src/wire/deadline.ts";

// An upstream that answers an MCP URL with a page of its own and a cookie (issue 27, finding 1): what a browser
// would get from Faultline's origin must neither run the page's script as Faultline nor set the cookie.

const server = useServer();
let hostile: Server;
let hostileUrl: string;
const PAGE = "<!doctype html><script>fetch('/api/sessions').then((r) => r.text()).then((t) => (document.title = t))</script>";

before(async () => {
  hostile = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": "faultline_login=stolen; Path=/" });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/mcp`;
});
after(() => new Promise<void>((resolve) => hostile.close(() => resolve())));

async function proxied(): Promise<string> {
  const { status, json } = await createProxied(server.url, { scenario: "baseline", upstream: hostileUrl });
  assert.equal(status, 201, JSON.stringify(json));
  return json.mcpUrl as string;
}

function assertInert(response: Response): void {
  assert.equal(response.headers.get("set-cookie"), null, "the upstream's cookie is not set on Faultline's origin");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  const csp = response.headers.get("content-security-policy") ?? "";
  assert.match(csp, /(^|;\s*)sandbox(;|$)/, `the page runs in a sandbox, an opaque origin: ${csp}`);
  assert.match(csp, /default-src 'none'/, `no script or fetch from the page: ${csp}`);
}

test("an upstream's HTML page at the MCP URL, opened with GET as a browser would, comes back sandboxed and without its cookie", async () => {
  const response = await fetch(await proxied(), { headers: { accept: "text/html" } });
  assert.equal(response.status, 200);
  assert.equal(await response.text(), PAGE);
  assertInert(response);
});

test("an upstream's HTML answer to a tools/call comes back sandboxed and without its cookie", async () => {
  const response = await call(await proxied(), 1, "echo", { text: "hi" });
  await response.text();
  assertInert(response);
});

test("a credential in the upstream URL's query is kept out of the session's view and the journal of the exchanges it answers", async () => {
  const { status, json } = await createProxied(server.url, { scenario: "baseline", upstream: `${hostileUrl}?api_key=TOPSECRET1234` });
  assert.equal(status, 201, JSON.stringify(json));
  const response = await call(json.mcpUrl as string, 1, "echo", { text: "hi" });
  await response.text();
  assert.doesNotMatch(JSON.stringify(json), /TOPSECRET1234/, "the created session's answer");
  const view = await (await fetch(`${server.url}/api/sessions/${json.id as string}`)).text();
  assert.match(view, /api_key=%5Bredacted%5D/);
  assert.doesNotMatch(view, /TOPSECRET1234/, "the session's view");
  const journal = await journalWhen(server.url, json.id as string, (entries) => entries.length === 1);
  assert.match(journal[0]?.proxied?.upstream ?? "", /api_key=%5Bredacted%5D$/);
  assert.doesNotMatch(JSON.stringify(journal), /TOPSECRET1234/);
});

test("an unreachable upstream's 502 message names its URL without the credential in its query", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const outcome = await callUpstream("POST", new Headers(), "{}", { url: `http://127.0.0.1:${port}/mcp?api_key=TOPSECRET1234`, forwardAuthorization: false }, new Deadline(Date.now(), 5));
  assert.equal(outcome.ok, false);
  assert.ok(!outcome.ok && outcome.status === 502);
  assert.match(outcome.ok ? "" : outcome.reason, /api_key=%5Bredacted%5D/);
  assert.doesNotMatch(outcome.ok ? "" : outcome.reason, /TOPSECRET1234/);
});
