import { createHash } from "node:crypto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { approveForm, authorizeRequest, b64url, codeFor, cookieOf, issuerOf, pkce, postConsent, REDIRECT, registerClient, tokenRequest, tokensFor } from "./flow.ts";

// Every refusal of the builtin authorization server, each with the error code its RFC names, over the real server.
const server = useServer();
const s256 = (verifier: string) => b64url(createHash("sha256").update(verifier).digest());

const codeGrant = (mcpUrl: string, c: { clientId: string; verifier: string; code: string }, over: Record<string, string | undefined> = {}) => {
  const fields: Record<string, string | undefined> = { grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: c.clientId, redirect_uri: REDIRECT, resource: mcpUrl, ...over };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
};
const refreshGrant = (mcpUrl: string, t: { clientId: string; refresh_token: string }, over: Record<string, string> = {}) => ({ grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId, resource: mcpUrl, ...over });

test("the full flow issues a Bearer token bound to the session, and the MCP endpoint accepts it", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const t = await tokensFor(mcpUrl);
  assert.equal(t.token_type, "Bearer");
  assert.equal(t.scope, "faultline:read", "no scope asked: the default scope");
  assert.equal((await postModern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: `Bearer ${t.access_token}` } })).status, 200);
});

test("a wrong code_verifier is refused with invalid_grant (PKCE, RFC 7636 §4.6)", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const c = await codeFor(mcpUrl);
  const { status, body } = await tokenRequest(c.issuer, codeGrant(mcpUrl, c, { code_verifier: pkce().verifier }));
  assert.equal(status, 400);
  assert.equal(body.error, "invalid_grant");
  assert.match(body.error_description!, /code_verifier/);
});

test("a code used twice is refused with invalid_grant, and the tokens of its first use are revoked", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const c = await codeFor(mcpUrl);
  const first = await tokenRequest(c.issuer, codeGrant(mcpUrl, c));
  assert.equal(first.status, 200);
  const second = await tokenRequest(c.issuer, codeGrant(mcpUrl, c));
  assert.equal(second.status, 400);
  assert.equal(second.body.error, "invalid_grant");
  const res = await postModern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: `Bearer ${first.body.access_token}` } });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("www-authenticate")!, /error="invalid_token"/);
});

test("a redirect_uri at /token that differs from the authorization request's is refused with invalid_grant", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const c = await codeFor(mcpUrl);
  const { status, body } = await tokenRequest(c.issuer, codeGrant(mcpUrl, c, { redirect_uri: "http://127.0.0.1:9/other" }));
  assert.equal(status, 400);
  assert.equal(body.error, "invalid_grant");
  assert.match(body.error_description!, /redirect_uri/);
});

test("an unregistered redirect_uri at /authorize is refused on the page, never redirected to", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const { res, query } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: "http://127.0.0.1:9/evil" });
  assert.equal(res.status, 400);
  assert.equal(query, undefined);
  assert.equal(((await res.json()) as { error: string }).error, "invalid_request");
});

test("a missing or foreign resource is refused with invalid_target at /authorize (redirected, with state and iss) and at /token", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const other = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  for (const resource of [undefined, other.mcpUrl]) {
    const { res, query } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource, state: "s1" });
    assert.equal(res.status, 302);
    assert.equal(query?.get("error"), "invalid_target");
    assert.equal(query?.get("state"), "s1");
    assert.equal(query?.get("iss"), issuer);
  }
  for (const resource of [undefined, other.mcpUrl]) {
    const c = await codeFor(mcpUrl);
    const { status, body } = await tokenRequest(c.issuer, codeGrant(mcpUrl, c, { resource }));
    assert.equal(status, 400);
    assert.equal(body.error, "invalid_target");
  }
});

test("a refresh token rotates: the old one, used again, is refused with invalid_grant and revokes its grant", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const t = await tokensFor(mcpUrl);
  const refreshed = await tokenRequest(t.issuer, refreshGrant(mcpUrl, t));
  assert.equal(refreshed.status, 200);
  assert.notEqual(refreshed.body.refresh_token, t.refresh_token);
  const reused = await tokenRequest(t.issuer, refreshGrant(mcpUrl, t));
  assert.equal(reused.status, 400);
  assert.equal(reused.body.error, "invalid_grant");
  // OAuth 2.1 §4.3.1: the reuse revoked the grant, so the rotated refresh token and its access token die with it.
  const next = await tokenRequest(t.issuer, refreshGrant(mcpUrl, { clientId: t.clientId, refresh_token: refreshed.body.refresh_token! }));
  assert.equal(next.status, 400);
  assert.equal(next.body.error, "invalid_grant");
  assert.match(next.body.error_description!, /revoked/);
  assert.equal((await postModern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } })).status, 401);
});

test("an expired refresh token is refused with invalid_grant", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { refreshTokenSeconds: 1 });
  const t = await tokensFor(mcpUrl);
  await sleep(1500);
  const { status, body } = await tokenRequest(t.issuer, refreshGrant(mcpUrl, t));
  assert.equal(status, 400);
  assert.equal(body.error, "invalid_grant");
  assert.match(body.error_description!, /expired/);
});

test("a refresh cannot widen the scope (invalid_scope): more scope needs a new authorization", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const t = await tokensFor(mcpUrl);
  const { status, body } = await tokenRequest(t.issuer, refreshGrant(mcpUrl, t, { scope: "faultline:read faultline:write" }));
  assert.equal(status, 400);
  assert.equal(body.error, "invalid_scope");
});

test("a token issued by another session's authorization server is refused with 401 invalid_token", async () => {
  const mine = await createSession(server, "auth.unauthorized");
  const theirs = await createSession(server, "auth.unauthorized");
  const t = await tokensFor(theirs.mcpUrl);
  const res = await postModern(mine.mcpUrl, 1, "tools/list", {}, { headers: { authorization: `Bearer ${t.access_token}` } });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("www-authenticate")!, /error="invalid_token"/);
});

test("/authorize refuses a request without PKCE S256 (invalid_request) and an unknown scope (invalid_scope), by redirect", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const plain = await authorizeRequest(issuer, { clientId, challenge: "", resource: mcpUrl });
  assert.equal(plain.query?.get("error"), "invalid_request");
  assert.match(plain.query?.get("error_description") ?? "", /code_challenge/);
  const scoped = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, scope: "admin:all" });
  assert.equal(scoped.query?.get("error"), "invalid_scope");
});

test("/authorize refuses an unknown client_id on the page, and /token an unsupported grant or a JSON body", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const { res } = await authorizeRequest(issuer, { clientId: "flcl_nobody", challenge: pkce().challenge, resource: mcpUrl });
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as { error: string }).error, "invalid_client");
  const grant = await tokenRequest(issuer, { grant_type: "password", username: "u", password: "p" });
  assert.equal(grant.body.error, "unsupported_grant_type");
  const json = await fetch(`${issuer}/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(json.status, 400);
  assert.match(((await json.json()) as { error_description: string }).error_description, /application\/x-www-form-urlencoded/);
});

test("registration refuses a plain-http redirect URI off loopback with invalid_redirect_uri", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const res = await fetch(`${issuerOf(mcpUrl)}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://example.com/cb"] }) });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(body.error, "invalid_redirect_uri");
  assert.match(body.error_description, /redirect_uris\.0/);
});

test("the consent page needs its POST: a GET carrying approve=yes still shows the page; the form's POST redirects with a code", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { consent: true });
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const { challenge } = pkce();
  const page = await authorizeRequest(issuer, { clientId, challenge, resource: mcpUrl });
  assert.equal(page.res.status, 200);
  const html = await page.res.text();
  assert.match(html, /<form method="post">/);
  const fields = approveForm(html);
  assert.equal(fields.approve, "yes");
  const sneaky = await fetch(`${issuer}/authorize?${new URLSearchParams({ ...fields })}`, { redirect: "manual", headers: { cookie: cookieOf(page.res) } });
  assert.equal(sneaky.status, 200, "a link cannot approve on the user's behalf");
  await sneaky.arrayBuffer();
  const approved = await postConsent(issuer, fields, cookieOf(page.res));
  assert.equal(approved.status, 302);
  assert.ok(new URL(approved.headers.get("location")!).searchParams.get("code"));
});

test("/token refuses a code_verifier shorter than 43 characters even when it matches the challenge (RFC 7636 §4.1)", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const short = "a".repeat(42);
  const { query } = await authorizeRequest(issuer, { clientId, challenge: s256(short), resource: mcpUrl });
  const code = query!.get("code")!;
  const refused = await tokenRequest(issuer, codeGrant(mcpUrl, { clientId, verifier: short, code }));
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, "invalid_request");
  assert.match(refused.body.error_description!, /^code_verifier: must be 43 to 128 characters/);
});

test("/token refuses a code_verifier longer than 128 characters or outside A-Z a-z 0-9 - . _ ~, and accepts 43 and 128", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const redeem = async (verifier: string) => {
    const { query } = await authorizeRequest(issuer, { clientId, challenge: s256(verifier), resource: mcpUrl });
    return tokenRequest(issuer, codeGrant(mcpUrl, { clientId, verifier, code: query!.get("code")! }));
  };
  for (const verifier of ["b".repeat(129), `${"c".repeat(42)}+`, `${"d".repeat(42)} `, `${"e".repeat(42)}é`]) {
    const { status, body } = await redeem(verifier);
    assert.equal(status, 400, verifier);
    assert.match(body.error_description!, /^code_verifier: /, verifier);
  }
  for (const verifier of ["A-._~".repeat(8) + "xyz", "9".repeat(128)]) assert.equal((await redeem(verifier)).status, 200, verifier);
});
