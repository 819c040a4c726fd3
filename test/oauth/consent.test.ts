import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, useServer } from "../helpers/server.ts";
import { approveForm, authorizeRequest, cookieOf, issuerOf, pkce, postConsent, registerClient } from "./flow.ts";

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
