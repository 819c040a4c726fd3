import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { CLIENT_DOCUMENT_TIMEOUT_MS, clientIdProblem, fetchClientDocument, MAX_CLIENT_DOCUMENT, serverFacts, UNREADABLE_DOCUMENT } from "../../src/oauth/client-id.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { authorizeRequest, issuerOf, pkce, REDIRECT } from "./flow.ts";

// Client ID Metadata Documents: the rules on the URL (in process) and the fetch of the document (over the real server,
// from a document host on 127.0.0.1, accepted because the server runs on loopback too).
const server = useServer();
let host: Server;
let docs = "";
const hung: Array<() => void> = [];
/** A port that speaks something other than HTTP, and one where nothing listens. */
let notHttp: TcpServer;
let notHttpPort = 0;
let closedPort = 0;

before(async () => {
  host = createServer((req, res) => {
    const self = `${docs}${req.url}`;
    const doc = (over: Record<string, unknown> = {}) => JSON.stringify({ client_id: self, client_name: "Doc client", redirect_uris: [REDIRECT], ...over });
    if (req.url === "/client.json") return res.writeHead(200, { "content-type": "application/json" }).end(doc());
    if (req.url === "/moved.json") return res.writeHead(302, { location: `${docs}/client.json` }).end();
    if (req.url === "/big.json") return res.writeHead(200, { "content-type": "application/json" }).end(doc({ padding: "x".repeat(MAX_CLIENT_DOCUMENT) }));
    if (req.url === "/other-id.json") return res.writeHead(200, { "content-type": "application/json" }).end(doc({ client_id: `${docs}/client.json` }));
    if (req.url === "/secret.json") return res.writeHead(200, { "content-type": "application/json" }).end(doc({ token_endpoint_auth_method: "client_secret_basic" }));
    if (req.url === "/hang.json") return void hung.push(() => res.destroy());
    if (req.url === "/page.json") return res.writeHead(200, { "content-type": "text/html" }).end("<h1>not a document</h1>");
    if (req.url === "/script-redirect.json") return res.writeHead(200, { "content-type": "application/json" }).end(doc({ redirect_uris: ["javascript:alert(document.domain)"] }));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  docs = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  notHttp = createTcpServer((socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n"));
  await new Promise<void>((resolve) => notHttp.listen(0, "127.0.0.1", resolve));
  notHttpPort = (notHttp.address() as AddressInfo).port;
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
});
after(() => {
  for (const end of hung) end();
  host.close();
  notHttp.close();
});

test("the server runs on loopback by its configuration: a Host of 127.0.0.1 does not make a server with an admin token or a public URL elsewhere one", () => {
  assert.equal(serverFacts("http://127.0.0.1:8787", {}).loopback, true, "no token: npm start and npm run serve listen on loopback only");
  assert.equal(serverFacts("http://127.0.0.1:8787", { FAULTLINE_ADMIN_TOKEN: "t" }).loopback, false, "a token: the server may be shared, and any client can send Host: 127.0.0.1");
  assert.equal(serverFacts("http://localhost:8787", { FAULTLINE_ADMIN_TOKEN: "t", FAULTLINE_PUBLIC_URL: "http://localhost:8787" }).loopback, true, "a loopback public URL says so");
  assert.equal(serverFacts("https://faultline.example.com", { FAULTLINE_PUBLIC_URL: "https://faultline.example.com" }).loopback, false);
  assert.equal(serverFacts("https://faultline.example.com", {}).loopback, false, "reached by another name");
  assert.equal(serverFacts("http://127.0.0.1:8787", { FAULTLINE_ADMIN_TOKEN: "t", FAULTLINE_PUBLIC_URL: "not a url" }).loopback, false, "an unusable public URL is not a configuration");
});

test("a client_id must be an https URL with a path; http only on loopback, and only while the server is on loopback", () => {
  const onLoopback = serverFacts("http://127.0.0.1:8787", {});
  const public_ = serverFacts("https://faultline.example.com", { FAULTLINE_PUBLIC_URL: "https://faultline.example.com" });
  const vars = { ALLOWED_ORIGINS: "https://clients.example.com" };
  assert.equal(clientIdProblem("https://clients.example.com/app.json", public_, vars), undefined);
  assert.match(clientIdProblem("https://clients.example.com/", public_, vars)!, /with a path/);
  assert.match(clientIdProblem("http://clients.example.com/app.json", public_, vars)!, /https/);
  assert.match(clientIdProblem("https://clients.example.com/app.json#x", public_, vars)!, /fragment/);
  assert.match(clientIdProblem("https://elsewhere.example/app.json", public_, vars)!, /ALLOWED_ORIGINS/);
  assert.equal(clientIdProblem("http://127.0.0.1:3000/client.json", onLoopback, {}), undefined);
  assert.match(clientIdProblem("http://127.0.0.1:3000/client.json", public_, vars)!, /only while this server runs on loopback/);
  assert.match(clientIdProblem("https://localhost/client.json", public_, vars)!, /only while this server runs on loopback/);
});

const tryClient = async (path: string) => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  return authorizeRequest(issuerOf(mcpUrl), { clientId: `${docs}${path}`, challenge: pkce().challenge, resource: mcpUrl });
};

test("a client metadata document on loopback is fetched, and its redirect URI gets the code", async () => {
  const { res, query } = await tryClient("/client.json");
  assert.equal(res.status, 302);
  assert.ok(query?.get("code"));
});

test("every failure to read a document gets the same answer (closed port, not HTTP, hanging, not 200, redirect, too large, not JSON, another client_id): no port oracle", { timeout: 60_000 }, async () => {
  const urls = [
    `http://127.0.0.1:${closedPort}/client.json`,
    `http://127.0.0.1:${notHttpPort}/client.json`,
    ...["/hang.json", "/missing.json", "/moved.json", "/big.json", "/page.json", "/other-id.json"].map((path) => `${docs}${path}`),
  ];
  const answers = await Promise.all(urls.map(async (clientId) => {
    const { mcpUrl } = await createSession(server, "auth.unauthorized");
    const { res, query } = await authorizeRequest(issuerOf(mcpUrl), { clientId, challenge: pkce().challenge, resource: mcpUrl });
    return { clientId, status: res.status, redirected: query !== undefined, body: (await res.json()) as { error: string; error_description: string } };
  }));
  for (const answer of answers) {
    assert.equal(answer.status, 400, answer.clientId);
    assert.equal(answer.redirected, false, answer.clientId);
    assert.deepEqual(answer.body, { error: "invalid_client", error_description: UNREADABLE_DOCUMENT }, answer.clientId);
  }
});

test("a failure to read a document is answered only once the fetch's time is up, so timing does not tell a closed port from a hanging one", async () => {
  let clock = 1_000;
  const waited: number[] = [];
  const result = await fetchClientDocument("http://127.0.0.1:1/client.json", {
    fetcher: async () => {
      clock += 10;
      throw new TypeError("connection refused");
    },
    now: () => clock,
    wait: async (ms) => void waited.push(ms),
  });
  assert.deepEqual(result, { problem: UNREADABLE_DOCUMENT });
  assert.deepEqual(waited, [CLIENT_DOCUMENT_TIMEOUT_MS - 10]);
});

for (const [path, rule] of [
  ["/secret.json", /public clients/],
  ["/script-redirect.json", /redirect_uris\.0: "javascript:alert\(document\.domain\)" has the scheme javascript:/],
] as const) {
  test(`a document that names itself is refused on the page (invalid_client) with the rule it breaks: ${path}`, async () => {
    const { res, query } = await tryClient(path);
    assert.equal(res.status, 400);
    assert.equal(query, undefined);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, "invalid_client");
    assert.match(body.error_description, rule);
  });
}
