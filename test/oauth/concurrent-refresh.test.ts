import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { tokenRequest, tokensFor } from "./flow.ts";

// auth-one-refresh-per-token over the real server: small scripted fetch clients whose two parallel calls both meet the
// token's expiry (auth.token_expiry, uses=2). One refreshes once and shares the new token; the other refreshes once per
// failed call, each with the refresh token it held when it sent the call, so both present the same refresh token.
const server = useServer();
type Json = Record<string, any>;

const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
const check = (checks: Json[], id: string) => checks.find((c) => c.id === id);

/** A client holding one grant's tokens; `refresh` spends the refresh token it is given and keeps what comes back. */
async function scriptedClient(mcpUrl: string) {
  const t = await tokensFor(mcpUrl);
  const held = { access: t.access_token, refresh: t.refresh_token };
  let id = 0;
  const call = (access: string) => postModern(mcpUrl, ++id, "tools/list", {}, { headers: { authorization: `Bearer ${access}` } });
  const refresh = async (refreshToken: string) => {
    const r = await tokenRequest(t.issuer, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: t.clientId, resource: mcpUrl });
    if (r.status === 200) Object.assign(held, { access: r.body.access_token, refresh: r.body.refresh_token });
    return r;
  };
  // Two calls spend the token's two uses; the next two, sent together, both meet the expiry.
  for (let i = 0; i < 2; i++) assert.equal((await call(held.access)).status, 200);
  const snapshot = { ...held };
  const [a, b] = await Promise.all([call(snapshot.access), call(snapshot.access)]);
  assert.deepEqual([a.status, b.status], [401, 401], "both parallel calls met the expiry");
  return { held, snapshot, call, refresh };
}

test("a client that refreshes once for two parallel expired calls passes auth-one-refresh-per-token, and both retries succeed", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2 });
  const c = await scriptedClient(mcpUrl);
  // Single flight: both failed calls wait on the one refresh.
  const shared = c.refresh(c.snapshot.refresh);
  const [ra, rb] = await Promise.all([shared, shared]);
  assert.equal(ra.status, 200);
  assert.equal(ra, rb);
  const retried = await Promise.all([c.call(c.held.access), c.call(c.held.access)]);
  assert.deepEqual(retried.map((r) => r.status), [200, 200]);
  const verdict = check(await checksOf(id), "auth-one-refresh-per-token");
  assert.equal(verdict?.status, "pass", JSON.stringify(verdict));
  assert.match(verdict!.message, /The one refresh presented a refresh token no earlier refresh had spent/);
});

test("a client that refreshes once per expired call presents one refresh token twice: the grant is revoked and auth-one-refresh-per-token fails naming both", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2 });
  const c = await scriptedClient(mcpUrl);
  // Each failed call refreshes on its own, with the refresh token it held when it was sent.
  const results = await Promise.all([c.refresh(c.snapshot.refresh), c.refresh(c.snapshot.refresh)]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
  assert.equal(results.find((r) => r.status === 400)!.body.error, "invalid_grant");
  // The reuse revoked every token of the grant, the one just issued included (OAuth 2.1 §4.3.1).
  assert.equal((await c.call(c.held.access)).status, 401);
  const verdict = check(await checksOf(id), "auth-one-refresh-per-token");
  assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
  assert.match(verdict!.message, /^2 refreshes presented the same refresh token: at \S+ \(issued\), then at \S+ \(refused: invalid_grant\)\./);
  // What the check says never carries a token.
  assert.ok(!/fla_|flr_/.test(JSON.stringify(await checksOf(id))));
});
