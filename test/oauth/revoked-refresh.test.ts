import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { MAX_REFUSED_REFRESHES } from "../../src/checks/auth-refresh.ts";
import { REDIRECT, codeFor, tokenRequest, tokensFor } from "./flow.ts";

// auth.token_expiry with refreshRevoked over the real server: every refresh is refused with invalid_grant, so a client
// must run the whole authorization again. Small scripted fetch clients: one that does, one that loops on refreshing,
// one that gives up.
const server = useServer();
type Json = Record<string, any>;

const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
const check = (checks: Json[], id: string) => checks.find((c) => c.id === id);

/** A client whose one-use token has just expired (uses=1): the first call passed, the second got 401 invalid_token. */
async function expiredClient(mcpUrl: string) {
  const t = await tokensFor(mcpUrl);
  let id = 0;
  const call = (access: string) => postModern(mcpUrl, ++id, "tools/list", {}, { headers: { authorization: `Bearer ${access}` } });
  assert.equal((await call(t.access_token)).status, 200);
  const expired = await call(t.access_token);
  assert.equal(expired.status, 401);
  assert.match(expired.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  const refresh = () => tokenRequest(t.issuer, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId, resource: mcpUrl });
  return { call, refresh };
}

test("with refreshRevoked the refresh is refused with invalid_grant; a client that authorizes again passes auth-reauthorized-after-revoke and its new token works", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 1, refreshRevoked: true });
  const c = await expiredClient(mcpUrl);
  const refused = await c.refresh();
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, "invalid_grant");
  assert.match(refused.body.error_description!, /revoked/);
  // The whole flow again: a code, then the authorization_code grant.
  const again = await codeFor(mcpUrl);
  const fresh = await tokenRequest(again.issuer, { grant_type: "authorization_code", code: again.code, code_verifier: again.verifier, client_id: again.clientId, redirect_uri: REDIRECT, resource: mcpUrl });
  assert.equal(fresh.status, 200);
  assert.equal((await c.call(fresh.body.access_token!)).status, 200);
  const checks = await checksOf(id);
  const verdict = check(checks, "auth-reauthorized-after-revoke");
  assert.equal(verdict?.status, "pass", JSON.stringify(checks));
  assert.match(verdict!.message, /the client authorized again: an authorization_code grant at \S+ \(issued\)/);
  assert.equal(check(checks, "auth-refreshed-on-expiry")?.status, "pass", "it refreshed first, and the refusal is the server's");
});

test("a client that keeps refreshing after invalid_grant fails auth-reauthorized-after-revoke, which counts the refusals", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 1, refreshRevoked: true });
  const c = await expiredClient(mcpUrl);
  for (let i = 0; i <= MAX_REFUSED_REFRESHES; i++) assert.equal((await c.refresh()).body.error, "invalid_grant");
  const verdict = check(await checksOf(id), "auth-reauthorized-after-revoke");
  assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
  assert.match(verdict!.message, new RegExp(`^${MAX_REFUSED_REFRESHES + 1} refreshes in a row were refused with invalid_grant`));
});

test("a client that gives up after invalid_grant fails auth-reauthorized-after-revoke: it never authorized again", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 1, refreshRevoked: true });
  const c = await expiredClient(mcpUrl);
  assert.equal((await c.refresh()).body.error, "invalid_grant");
  const verdict = check(await checksOf(id), "auth-reauthorized-after-revoke");
  assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
  assert.match(verdict!.message, /asked the token endpoint for nothing more/);
});

test("without refreshRevoked the same refresh is issued, and no refusal means auth-reauthorized-after-revoke is not listed", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 1 });
  const c = await expiredClient(mcpUrl);
  assert.equal((await c.refresh()).status, 200);
  assert.equal(check(await checksOf(id), "auth-reauthorized-after-revoke"), undefined);
});

test("refreshRevoked that is not a boolean is refused at creation with 400 naming params.refreshRevoked", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "auth.token_expiry", params: { refreshRevoked: "yes" } }) });
  const body = (await res.json()) as Json;
  assert.equal(res.status, 400);
  assert.deepEqual(body.error.issues.map((i: Json) => i.path), ["params.refreshRevoked"]);
});
