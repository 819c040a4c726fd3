import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { serveOAuth } from "../../src/oauth/server.ts";
import { type OAuthSql, OAuthStore } from "../../src/oauth/store.ts";
import { migratedSqlOn } from "../helpers/node-sql.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { approveForm, authorizeRequest, cookieOf, issuerOf, pkce, postConsent, REDIRECT, registerClient } from "./flow.ts";

// The consent form's CSRF defence (OWASP ASVS V3.5, signed double-submit cookie), over the real server: only the
// browser that was shown the page, posting the fields it was shown, approves.
const server = useServer();

/** A consent session's page for a fresh client: its Approve fields, and the cookie it set in this "browser". */
async function consentPage() {
  const { mcpUrl } = await createSession(server, "auth.unauthorized", { consent: true });
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const challenge = pkce().challenge;
  const { res } = await authorizeRequest(issuer, { clientId, challenge, resource: mcpUrl });
  assert.equal(res.status, 200);
  return { issuer, clientId, challenge, mcpUrl, res, fields: approveForm(await res.text()), cookie: cookieOf(res) };
}

const refusedOnPage = async (res: Response) => {
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("location"), null, "a forged answer is not sent to the client");
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(body.error, "invalid_request");
  assert.match(body.error_description, /csrf_token/);
};

test("the consent page sets an HttpOnly, SameSite=Strict cookie scoped to /authorize and carries a csrf_token", async () => {
  const page = await consentPage();
  const setCookie = page.res.headers.get("set-cookie")!;
  assert.match(setCookie, /^faultline_consent=[A-Za-z0-9_-]{16,}; /);
  assert.match(setCookie, /; HttpOnly/);
  assert.match(setCookie, /; SameSite=Strict/);
  assert.match(setCookie, new RegExp(`; Path=${new URL(page.issuer).pathname}/authorize;`));
  assert.doesNotMatch(setCookie, /Secure/, "plain http on loopback: a Secure cookie would never come back");
  assert.match(page.fields.csrf_token!, /^[0-9a-f]{64}$/);
});

test("an approval posted without the csrf_token is refused on the page", async () => {
  const page = await consentPage();
  const { csrf_token: _, ...withoutToken } = page.fields;
  await refusedOnPage(await postConsent(page.issuer, withoutToken, page.cookie));
});

test("an approval posted without the page's cookie (a cross-site POST: SameSite keeps it back) is refused", async () => {
  const page = await consentPage();
  await refusedOnPage(await postConsent(page.issuer, page.fields));
});

test("a form fetched by someone else cannot be posted by this browser: the token names the other browser's nonce", async () => {
  const victim = await consentPage();
  // The attacker fetches the same request's page for itself (its own cookie) and has the victim's browser post it.
  const url = new URL(`${victim.issuer}/authorize`);
  for (const [k, v] of Object.entries(victim.fields)) if (k !== "approve" && k !== "csrf_token") url.searchParams.set(k, v);
  const theirs = await fetch(url, { redirect: "manual" });
  const forged = approveForm(await theirs.text());
  assert.notEqual(cookieOf(theirs), victim.cookie);
  await refusedOnPage(await postConsent(victim.issuer, forged, victim.cookie));
});

test("an approval whose fields were changed after the page was shown is refused: the token names the request", async () => {
  const page = await consentPage();
  await refusedOnPage(await postConsent(page.issuer, { ...page.fields, scope: "faultline:read faultline:write" }, page.cookie));
});

test("the page's own form, posted by the browser it was shown to, approves (302 with a code) or denies (access_denied)", async () => {
  const page = await consentPage();
  const approved = await postConsent(page.issuer, page.fields, page.cookie);
  assert.equal(approved.status, 302);
  assert.ok(new URL(approved.headers.get("location")!).searchParams.get("code"));
  const denied = await postConsent(page.issuer, { ...page.fields, approve: "no" }, page.cookie);
  assert.equal(denied.status, 302);
  assert.equal(new URL(denied.headers.get("location")!).searchParams.get("error"), "access_denied");
});

test("a second consent page in the same browser keeps its cookie, so two open pages both work", async () => {
  const first = await consentPage();
  const url = new URL(`${first.issuer}/authorize`);
  for (const [k, v] of Object.entries(first.fields)) if (k !== "approve" && k !== "csrf_token") url.searchParams.set(k, v);
  url.searchParams.set("state", "second");
  const second = await fetch(url, { redirect: "manual", headers: { cookie: first.cookie } });
  assert.equal(cookieOf(second), first.cookie);
  assert.equal((await postConsent(first.issuer, first.fields, first.cookie)).status, 302);
  assert.equal((await postConsent(first.issuer, approveForm(await second.text()), first.cookie)).status, 302);
});

test("behind an https public URL the consent cookie is Secure (in process: the server's request handler on an in-memory store)", async () => {
  const db = new DatabaseSync(":memory:");
  const store = new OAuthStore(migratedSqlOn(db) as unknown as OAuthSql);
  store.saveClient({ clientId: "flcl_x", redirectUris: [REDIRECT], via: "dcr" }, 0);
  const mount = { origin: "https://faultline.example.com", prefix: "/s/demo" };
  const query = new URLSearchParams({ response_type: "code", client_id: "flcl_x", redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "S256", resource: `${mount.origin}/s/demo/mcp` });
  const serve = (origin: string) =>
    serveOAuth("authorize", new Request(`http://127.0.0.1:8787/s/demo/oauth/authorize?${query}`), {
      mount: { ...mount, origin }, settings: { consent: true, refreshTokenSeconds: 60, scopes: ["faultline:read"], refreshRevoked: false }, store: () => store, vars: {}, now: Date.now(),
    });
  const secure = await serve(mount.origin);
  assert.equal(secure.status, 200);
  assert.match(secure.headers.get("set-cookie")!, /; Path=\/s\/demo\/oauth\/authorize;.*; Secure$/);
  query.set("resource", "http://127.0.0.1:8787/s/demo/mcp");
  assert.doesNotMatch((await serve("http://127.0.0.1:8787")).headers.get("set-cookie")!, /Secure/);
});
