import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer, type TestServer } from "../helpers/server.ts";
import { authorizeRequest, pkce, REDIRECT } from "./flow.ts";

// Whether the server "runs on loopback" (the exception that lets it fetch a client metadata document from
// http://127.0.0.1…) comes from its configuration, not from the Host a client sends: every request below goes to
// 127.0.0.1 with Host 127.0.0.1, to a server with an admin token (which may be shared), with and without a loopback
// FAULTLINE_PUBLIC_URL.
const ADMIN = "admin-secret-for-loopback-tests";
let shared: TestServer;
let published: TestServer;
let host: Server;
let docs = "";

before(async () => {
  host = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: `${docs}${req.url}`, redirect_uris: [REDIRECT] }));
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  docs = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  shared = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN });
  published = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_PUBLIC_URL: "http://localhost:8787" });
});
after(async () => {
  host.close();
  await shared?.close();
  await published?.close();
});

/** Creates an auth session on `server` and asks its /authorize (at the server's own address) for the loopback document client. */
async function tryLoopbackDocument(server: TestServer) {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ scenario: "auth.unauthorized" }) });
  assert.equal(created.status, 201);
  const { mcpUrl } = (await created.json()) as { mcpUrl: string };
  const issuer = `${server.url}${new URL(mcpUrl).pathname.replace(/\/mcp$/, "/oauth")}`;
  return authorizeRequest(issuer, { clientId: `${docs}/client.json`, challenge: pkce().challenge, resource: mcpUrl });
}

test("a server with an admin token and no public URL refuses a loopback client_id, though the request's Host is 127.0.0.1", async () => {
  const { res, query } = await tryLoopbackDocument(shared);
  assert.equal(res.status, 400);
  assert.equal(query, undefined);
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(body.error, "invalid_client");
  assert.match(body.error_description, /only while this server runs on loopback/);
});

test("a server whose FAULTLINE_PUBLIC_URL is on loopback accepts a loopback client_id, admin token or not", async () => {
  const { res, query } = await tryLoopbackDocument(published);
  assert.equal(res.status, 302, await res.clone().text());
  assert.ok(query?.get("code"));
});
