import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, useServer } from "../helpers/server.ts";
import { approveForm, authorizeRequest, cookieOf, issuerOf, pkce, postConsent, REDIRECT, registerClient } from "./flow.ts";

// Redirect URIs (OAuth 2.1 §2.3.1, RFC 9700 §4.1 and §4.11.2, RFC 8252 §7): what registration accepts, what
// /authorize matches, and where the server sends a browser without asking. Over the real server.
const server = useServer();

const registerRaw = async (issuer: string, redirectUris: string[]) => {
  const res = await fetch(`${issuer}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: redirectUris }) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
};

test("registration refuses script, data, file and other non-redirect schemes, http off loopback, fragments and spaces with invalid_redirect_uri naming the URI", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  for (const uri of [
    "javascript:alert(document.domain)", "JavaScript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd", "blob:https://a.example/1", "about:blank", "http://example.com/cb", "http://127.0.0.1.example.com/cb",
    "https://client.example/cb#frag", " https://client.example/cb", "/relative/cb",
  ]) {
    const { status, body } = await registerRaw(issuer, [REDIRECT, uri]);
    assert.equal(status, 400, uri);
    assert.equal(body.error, "invalid_redirect_uri", uri);
    assert.ok(body.error_description!.startsWith(`redirect_uris.1: ${JSON.stringify(uri)} `), `${uri}: ${body.error_description}`);
  }
});

test("registration accepts https, http on 127.0.0.1, [::1] and localhost, and a native app's private-use scheme", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const uris = ["https://client.example/cb", "http://127.0.0.1:33418/cb", "http://[::1]:8080/cb", "http://localhost:6274/oauth/callback", "com.example.app:/oauth2redirect", "cursor://anysphere.cursor-retrieval/oauth/callback"];
  const { status, body } = await registerRaw(issuerOf(mcpUrl), uris);
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.redirect_uris, uris);
});

test("/authorize matches the redirect URI as an exact string: a trailing slash, a query, another case or another scheme is refused on the page", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer, ["http://127.0.0.1:9/callback", "https://client.example/cb"]);
  for (const redirectUri of ["http://127.0.0.1:9/callback/", "http://127.0.0.1:9/callback?next=1", "http://127.0.0.1:9/Callback", "https://127.0.0.1:9/callback", "http://localhost:9/callback", "https://client.example/cb/", "https://CLIENT.example/cb", "https://client.example:443/cb"]) {
    const { res, query } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri });
    assert.equal(res.status, 400, redirectUri);
    assert.equal(query, undefined, redirectUri);
    assert.match(((await res.json()) as { error_description: string }).error_description, /exact match/, redirectUri);
  }
});

test("/authorize lets an http loopback redirect URI name any port (RFC 8252 §7.3), and redirects to that port", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer, ["http://127.0.0.1:9/callback"]);
  const { res, query } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: "http://127.0.0.1:51234/callback" });
  assert.equal(res.status, 302);
  assert.ok(res.headers.get("location")!.startsWith("http://127.0.0.1:51234/callback?"));
  assert.ok(query?.get("code"));
});

test("with consent off, a client's https redirect URI gets the consent page, not a redirect: no open redirector on this origin", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer, ["https://evil.example/landing"]);
  const { res } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: "https://evil.example/landing" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("location"), null);
  const html = await res.text();
  assert.match(html, /sends an authorization code to <strong>https:\/\/evil\.example<\/strong>/);
  // Approving on the page, in the browser it was shown to, is the user's own decision: then the code goes there.
  const approved = await postConsent(issuer, approveForm(html), cookieOf(res));
  assert.equal(approved.status, 302);
  assert.ok(approved.headers.get("location")!.startsWith("https://evil.example/landing?code="));
});

test("with consent off, an app scheme's redirect URI gets the consent page too: launching a program needs the user", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer, ["com.example.app:/cb"]);
  const { res } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: "com.example.app:/cb" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("location"), null);
  assert.match(await res.text(), /the app that handles com\.example\.app:/);
});

test("an erroneous request for an https redirect URI is refused on a page with a link back, never redirected (RFC 9700 §4.11.2)", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer, ["https://evil.example/landing"]);
  const { res } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: "https://evil.example/landing", scope: "admin:all" });
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("location"), null);
  const html = await res.text();
  assert.match(html, /invalid_scope/);
  assert.match(html, /<a href="https:\/\/evil\.example\/landing\?error=invalid_scope&#38;[^"]*" rel="noreferrer">Return to https:\/\/evil\.example<\/a>/);
});

test("with consent off, a loopback redirect URI is approved at once: the headless clients' flow", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const issuer = issuerOf(mcpUrl);
  for (const uri of ["http://127.0.0.1:9/callback", "http://localhost:9/callback", "http://[::1]:9/callback"]) {
    const clientId = await registerClient(issuer, [uri]);
    const { res, query } = await authorizeRequest(issuer, { clientId, challenge: pkce().challenge, resource: mcpUrl, redirectUri: uri });
    assert.equal(res.status, 302, uri);
    assert.ok(query?.get("code"), uri);
  }
});

test("an unknown client_id is refused on the page before its redirect_uri is looked at, whatever that names", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const { res, query } = await authorizeRequest(issuerOf(mcpUrl), { clientId: "flcl_nobody", challenge: pkce().challenge, resource: mcpUrl, redirectUri: "http://127.0.0.1:9/callback" });
  assert.equal(res.status, 400);
  assert.equal(query, undefined);
  assert.equal(((await res.json()) as { error: string }).error, "invalid_client");
});
