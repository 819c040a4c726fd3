// CORS on the MCP endpoints, in a real browser: the official SDK client runs in Chromium on a page served from
// another loopback port, against faulted sessions on the real server. Each fault must reach the page as its status
// or JSON-RPC error, not as a network error. A proxy that drops the CORS headers from faulted answers shows the
// difference: through it the same faults become network errors. Run with `npm run test:browser`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import { join } from "node:path";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { createSession, startServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, openPage, ROOT, type Browser } from "./harness.ts";
import type { Outcome } from "./cors-page.ts";

let server: TestServer;
let browser: Browser;
let pageServer: Server;
let pageOrigin: string;
let stripping: Server;
let strippingOrigin: string;

/** Listens on 127.0.0.1, an ephemeral port; resolves to its origin. */
function listen(http: Server): Promise<string> {
  return new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(http.address() as { port: number }).port}`)));
}

/** A page with the bundled client script, served by its own origin. */
async function servePage(): Promise<Server> {
  const bundle = await build({ entryPoints: [join(ROOT, "test/browser/cors-page.ts")], bundle: true, format: "iife", platform: "browser", target: "es2022", write: false, logLevel: "silent" });
  const script = bundle.outputFiles[0]!.text;
  return createServer((req, res) => {
    if (req.url === "/client.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>MCP client page</title><script src="/client.js"></script>');
  });
}

/** A proxy to the server that drops every Access-Control-* header from answers of status 400 and above. */
function stripCorsOnFaults(target: string): Server {
  const { hostname, port } = new URL(target);
  return createServer((req, res) => {
    const upstream = httpRequest({ hostname, port, path: req.url, method: req.method, headers: { ...req.headers, host: `${hostname}:${port}` } }, (answer) => {
      const headers = { ...answer.headers };
      if ((answer.statusCode ?? 0) >= 400) for (const name of Object.keys(headers)) if (name.startsWith("access-control-")) delete headers[name];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
}

before(async () => {
  // The browser first: without Chromium it throws before a server is started that no after hook could close.
  browser = await launchBrowser();
  server = await startServer();
  pageServer = await servePage();
  pageOrigin = await listen(pageServer);
  stripping = stripCorsOnFaults(server.url);
  strippingOrigin = await listen(stripping);
});
after(async () => {
  await browser?.close();
  await server?.close();
  pageServer?.close();
  stripping?.close();
});

async function clientPage(): Promise<Page> {
  const { page } = await openPage(browser.context);
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => "faultline" in window);
  return page;
}

type PageApi = { faultline: { echo(url: string, calls: number): Promise<Outcome[]>; post(url: string, body: unknown): Promise<Record<string, unknown>> } };

function echoInPage(page: Page, url: string, calls: number): Promise<Outcome[]> {
  return page.evaluate(([u, n]) => (window as unknown as PageApi).faultline.echo(u, n), [url, calls] as const);
}

function postInPage(page: Page, url: string): Promise<Record<string, unknown>> {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "page", version: "0" } } } };
  return page.evaluate(([u, b]) => (window as unknown as PageApi).faultline.post(u, b), [url, body] as const);
}

/** The same session's URL, reached through the proxy that drops CORS headers from faults. */
const viaStripping = (mcpUrl: string) => `${strippingOrigin}${new URL(mcpUrl).pathname}`;

test("the SDK client in a page on another loopback origin sees a 503 as a 503, and its next call succeeds", async () => {
  const { mcpUrl } = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"] });
  const page = await clientPage();
  const [first, second] = await echoInPage(page, mcpUrl, 2);
  assert.equal(first?.ok, false, JSON.stringify(first));
  assert.equal(first?.status, 503, JSON.stringify(first));
  assert.deepEqual(second, { ok: true, content: [{ type: "text", text: "call 2" }] });
  await page.close();
});

test("a page's fetch reads the fault's status and its exposed Retry-After and WWW-Authenticate headers", async () => {
  const busy = await createSession(server, "errors.http_status_sequence", { statusCodes: [429], retryAfter: 7 });
  const locked = await createSession(server, "auth.unauthorized", { when: "always" });
  const page = await clientPage();
  const throttled = await postInPage(page, busy.mcpUrl);
  assert.equal(throttled.status, 429, JSON.stringify(throttled));
  assert.equal(throttled.retryAfter, "7");
  const refused = await postInPage(page, locked.mcpUrl);
  assert.equal(refused.status, 401, JSON.stringify(refused));
  assert.match(String(refused.wwwAuthenticate), /^Bearer /);
  await page.close();
});

test("the SDK client in the page sees auth.unauthorized's 401, not a network error", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { when: "always" });
  const page = await clientPage();
  const [outcome] = await echoInPage(page, mcpUrl, 1);
  assert.equal(outcome?.ok, false);
  assert.doesNotMatch(String(outcome?.message), /Failed to fetch/, JSON.stringify(outcome));
  assert.match(`${outcome?.status ?? ""} ${outcome?.name} ${outcome?.message}`, /401|Unauthorized/i, JSON.stringify(outcome));
  await page.close();
});

test("control: without CORS headers on faulted answers, the same faults reach the page as network errors", async () => {
  const { mcpUrl } = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"] });
  const busy = await createSession(server, "errors.http_status_sequence", { statusCodes: [429], retryAfter: 7 });
  const page = await clientPage();
  const [first, second] = await echoInPage(page, viaStripping(mcpUrl), 2);
  assert.equal(first?.ok, false);
  assert.equal(first?.status, undefined, JSON.stringify(first));
  assert.match(String(first?.message), /fetch/i, JSON.stringify(first));
  assert.deepEqual(second, { ok: true, content: [{ type: "text", text: "call 2" }] }, "the 200 still carries its headers");
  const throttled = await postInPage(page, viaStripping(busy.mcpUrl));
  assert.equal(throttled.status, undefined);
  assert.match(String(throttled.error), /Failed to fetch/);
  await page.close();
});
