import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { clientIdProblem, MAX_CLIENT_DOCUMENT } from "../../src/oauth/client-id.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { authorizeRequest, issuerOf, pkce, REDIRECT } from "./flow.ts";

// Client ID Metadata Documents: the rules on the URL (in process) and the fetch of the document (over the real server,
// from a document host on 127.0.0.1, accepted because the server runs on loopback too).
const server = useServer();
let host: Server;
let docs = "";
const hung: Array<() => void> = [];

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
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  docs = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
after(() => {
  for (const end of hung) end();
  host.close();
});

const serverOn = (origin: string) => new URL(`${origin}/s/x/oauth/authorize`);

test("a client_id must be an https URL with a path; http only on loopback, and only while the server is on loopback", () => {
  const onLoopback = serverOn("http://127.0.0.1:8787");
  const public_ = serverOn("https://faultline.example.com");
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

for (const [path, rule] of [
  // redirect: "manual" is asked for, but the local runtime's outbound fetch follows the 302 itself and reports a 200
  // from the first URL; the document it reached names another client_id, which refuses it all the same.
  ["/moved.json", /redirect|client_id is not the URL/],
  ["/big.json", /larger than 64 KB/],
  ["/other-id.json", /client_id is not the URL/],
  ["/secret.json", /public clients/],
  ["/missing.json", /HTTP 404/],
  ["/hang.json", /within 5 s/],
] as const) {
  test(`a client metadata document is refused on the page (invalid_client) when it breaks a rule: ${path}`, async () => {
    const { res, query } = await tryClient(path);
    assert.equal(res.status, 400);
    assert.equal(query, undefined);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, "invalid_client");
    assert.match(body.error_description, rule);
  });
}
