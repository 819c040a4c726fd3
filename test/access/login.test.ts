import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../helpers/app.ts";

// Sign-in, sign-out and the login cookie, in process (findings 5 and 9 of issue 27). The Chromium side is
// test/browser/login.browser.ts.

const ADMIN = "admin-token-login-0123456789";
const VIEWER = "viewer-token-login-0123456789";
const env = { FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: VIEWER };
const ORIGIN = "http://127.0.0.1";
const PUBLIC = "https://faultline.example";

/** Each test guesses from its own client address, so the throttle's counts of one test never reach another. */
let clients = 0;
const newClient = () => `192.0.2.${++clients}`;

function login(token: string, opts: { origin?: string | null; vars?: Record<string, string>; client?: string; accept?: string; url?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": opts.client ?? newClient() };
  if (opts.origin !== null) headers.origin = opts.origin ?? ORIGIN;
  if (opts.accept) headers.accept = opts.accept;
  return app.request(opts.url ?? `${ORIGIN}/login`, { method: "POST", headers, body: new URLSearchParams({ token }).toString() }, opts.vars ?? env);
}

const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0]!;

test("every sign-in gets a fresh cookie value, for the same token", async () => {
  const first = cookieOf(await login(ADMIN));
  const second = cookieOf(await login(ADMIN));
  assert.notEqual(first, second);
  for (const cookie of [first, second]) {
    // Signed in, a cross-site write is refused by the Origin rule (403), which only a signed-in caller reaches (else 401).
    const res = await app.request(`${ORIGIN}/api/sessions/x/reset`, { method: "POST", headers: { cookie, origin: "https://evil.example" } }, env);
    assert.equal(res.status, 403, "both are signed in");
  }
});

test("sign-out revokes the cookie it is given: the same value is refused afterwards, another sign-in is not", async () => {
  const revoked = cookieOf(await login(ADMIN));
  const other = cookieOf(await login(ADMIN));
  const out = await app.request(`${ORIGIN}/logout`, { method: "POST", headers: { cookie: revoked, origin: ORIGIN } }, env);
  assert.equal(out.status, 303);
  assert.equal(out.headers.get("location"), "/login");
  assert.match(out.headers.get("set-cookie") ?? "", /^faultline_login=; Max-Age=0/);
  const replayed = await app.request(`${ORIGIN}/`, { headers: { cookie: revoked } }, env);
  assert.equal(replayed.status, 401, "a copy of the signed-out cookie no longer signs in");
  assert.match(replayed.headers.get("www-authenticate") ?? "", /invalid_token/);
  const still = await app.request(`${ORIGIN}/api/sessions/x/reset`, { method: "POST", headers: { cookie: other, origin: "https://evil.example" } }, env);
  assert.equal(still.status, 403, "the other sign-in is still signed in (it gets past the cookie check to the Origin rule)");
});

test("a cookie whose MAC was made for another role or another issue time is refused", async () => {
  const cookie = cookieOf(await login(VIEWER)).split("=")[1]!;
  const [, issued, nonce, mac] = cookie.split(".");
  const promoted = `faultline_login=admin.${issued}.${nonce}.${mac}`;
  assert.equal((await app.request(`${ORIGIN}/api/sessions`, { headers: { cookie: promoted } }, env)).status, 401);
  const younger = `faultline_login=viewer.${Number(issued) + 1}.${nonce}.${mac}`;
  assert.equal((await app.request(`${ORIGIN}/api/sessions`, { headers: { cookie: younger } }, env)).status, 401);
});

test("a wrong token in a browser's form post gets the login page again, saying so, as HTML", async () => {
  const res = await login("wrong-token-wrong-token", { accept: "text/html,application/xhtml+xml" });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  assert.match(html, /That token is not valid/);
  assert.match(html, /<form method="post" action="\/login"[ >]/);
  assert.equal(res.headers.get("set-cookie"), null);
});

test("a browser's login post with Origin: null or from another site gets the login page with the reason, 403", async () => {
  for (const origin of ["null", "https://evil.example", null]) {
    const res = await login(ADMIN, { origin, accept: "text/html" });
    assert.equal(res.status, 403, String(origin));
    assert.match(await res.text(), /Sign in from this server&#39;s own login page|Sign in from this server's own login page/);
    assert.equal(res.headers.get("set-cookie"), null);
  }
});

test("behind a reverse proxy, the origin FAULTLINE_PUBLIC_URL names is the server's own, and its https makes the cookie Secure", async () => {
  const vars = { ...env, FAULTLINE_PUBLIC_URL: `${PUBLIC}/`, ALLOWED_HOSTS: "" };
  const res = await login(ADMIN, { origin: PUBLIC, vars });
  assert.equal(res.status, 303);
  const setCookie = res.headers.get("set-cookie") ?? "";
  assert.match(setCookie, /; Secure/, "the browser is on https even though the Worker is reached over http");
  const cookie = cookieOf(res);
  const write = await app.request(`${ORIGIN}/api/sessions/x/reset`, { method: "POST", headers: { cookie, origin: "https://evil.example" } }, vars);
  assert.equal(write.status, 403, "a foreign Origin is still foreign");
  const mcp = await app.request(`${ORIGIN}/mcp`, { method: "OPTIONS", headers: { origin: PUBLIC, "access-control-request-method": "POST" } }, vars);
  assert.equal(mcp.status, 204, "a browser MCP client on the public origin passes CORS");
  assert.equal(mcp.headers.get("access-control-allow-origin"), PUBLIC);
  const out = await app.request(`${ORIGIN}/logout`, { method: "POST", headers: { cookie, origin: PUBLIC } }, vars);
  assert.equal(out.status, 303, "sign-out from the public origin");
  assert.match(out.headers.get("set-cookie") ?? "", /; Secure/);
  const plain = await login(ADMIN, { vars: { ...env, FAULTLINE_PUBLIC_URL: "http://127.0.0.2:9999" }, origin: "http://127.0.0.2:9999" });
  assert.equal(plain.status, 303);
  assert.doesNotMatch(plain.headers.get("set-cookie") ?? "", /Secure/, "an http public URL keeps the cookie usable over http");
});

test("the API's state change signed in by cookie accepts the published origin as the server's own", async () => {
  const vars = { ...env, FAULTLINE_PUBLIC_URL: PUBLIC };
  const cookie = cookieOf(await login(ADMIN, { origin: PUBLIC, vars }));
  const foreign = await app.request(`${ORIGIN}/api/sessions/x/reset`, { method: "POST", headers: { cookie, origin: "http://localhost:5173" } }, vars);
  assert.equal(foreign.status, 403);
  const own = await app.request(`${ORIGIN}/api/sessions/x/reset`, { method: "POST", headers: { cookie, origin: PUBLIC } }, vars);
  assert.equal(own.status, 500, "past every access rule the route itself runs, and needs the session index this env lacks");
});

test("dashboard pages answer with Referrer-Policy same-origin, so the login form's POST carries a real Origin", async () => {
  const res = await app.request(`${ORIGIN}/login`, {}, env);
  assert.equal(res.headers.get("referrer-policy"), "same-origin");
});

test("a signed-in page shows who is signed in and a sign-out control; a signed-out one shows neither", async () => {
  const cookie = cookieOf(await login(VIEWER));
  const html = await (await app.request(`${ORIGIN}/classify`, { headers: { cookie } }, env)).text();
  assert.match(html, /Signed in as <strong>viewer<\/strong>/);
  assert.match(html, /<form class="account" method="post" action="\/logout">/);
  const anonymous = await (await app.request(`${ORIGIN}/classify`, {}, env)).text();
  assert.doesNotMatch(anonymous, /Signed in as|action="\/logout"/);
  const open = await (await app.request(`${ORIGIN}/classify`, { headers: { cookie } }, {})).text();
  assert.doesNotMatch(open, /Signed in as/, "without a token configured nobody is signed in");
});
