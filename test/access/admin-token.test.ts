import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../helpers/app.ts";

// The admin and viewer tokens, in process: every refusal happens before a route runs, so no Durable Object is
// needed (admin-token.server.test.ts covers the admitted requests on the real server).

const ADMIN = "admin-token-0123456789";
const VIEWER = "viewer-token-0123456789";
const env = { FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: VIEWER };
const ORIGIN = "http://127.0.0.1";

const send = (path: string, init: RequestInit = {}, vars: Record<string, string> = env) =>
  app.request(/^https?:/.test(path) ? path : `${ORIGIN}${path}`, init, vars);

async function jsonOf(res: Response, status: number) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text);
}

test("with the admin token set, the API, the journal, its stream and the checks answer 401 JSON with a Bearer challenge", async () => {
  for (const path of ["/api/sessions", "/api/sessions/x", "/api/sessions/x/journal", "/api/sessions/x/journal/stream", "/api/sessions/x/checks"]) {
    const res = await send(path);
    const body = await jsonOf(res, 401);
    assert.equal(body.error.code, "unauthorized", path);
    assert.match(body.error.message, /Authorization: Bearer/);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="faultline"', path);
  }
  const del = await send("/api/sessions/x", { method: "DELETE" });
  assert.equal((await jsonOf(del, 401)).error.code, "unauthorized");
});

test("a wrong Bearer token or a forged cookie gets 401 with error=\"invalid_token\"", async () => {
  const forged: Array<Record<string, string>> = [{ authorization: `Bearer ${ADMIN}x` }, { authorization: "Bearer admin" }, { cookie: "faultline_login=forged" }, { cookie: `faultline_login=${ADMIN}` }];
  for (const headers of forged) {
    const res = await send("/api/sessions", { headers });
    await jsonOf(res, 401);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="faultline", error="invalid_token"', JSON.stringify(headers));
  }
});

test("the scenario catalogue, the classifier, the assets and health stay open with the token set", async () => {
  assert.equal((await send("/api/scenarios")).status, 200);
  assert.equal((await send("/classify")).status, 200);
  assert.equal((await send("/health")).status, 200);
  assert.equal((await send("/assets/app.css")).status, 200);
});

test("a dashboard page asked for as HTML without a credential gets 401 with the login form under the strict CSP", async () => {
  for (const path of ["/", "/sessions/x"]) {
    const res = await send(path, { headers: { accept: "text/html" } });
    assert.equal(res.status, 401, path);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="faultline"');
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    const html = await res.text();
    assert.match(html, /<form method="post" action="\/login"[ >]/);
    assert.match(html, /type="password"/);
  }
  const json = await send("/");
  assert.equal((await jsonOf(json, 401)).error.code, "unauthorized", "a non-browser caller gets the JSON");
});

test("the viewer token reads but gets 403 on every state change", async () => {
  const auth = { authorization: `Bearer ${VIEWER}`, "content-type": "application/json" };
  for (const [method, path] of [["POST", "/api/sessions"], ["PUT", "/api/sessions/x/scenario"], ["POST", "/api/sessions/x/reset"], ["DELETE", "/api/sessions/x"]]) {
    const body = await jsonOf(await send(path!, { method, headers: auth, body: method === "DELETE" ? undefined : "{}" }), 403);
    assert.equal(body.error.code, "read_only", `${method} ${path}`);
  }
});

async function login(token: string, url = `${ORIGIN}/login`, origin = new URL(url).origin) {
  return send(url, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token }).toString() });
}

test("the login form sets an HttpOnly, SameSite=Strict cookie that is not the token, Secure over https", async () => {
  const res = await login(ADMIN);
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/");
  const cookie = res.headers.get("set-cookie") ?? "";
  assert.match(cookie, /^faultline_login=admin\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43};/);
  assert.ok(!cookie.includes(ADMIN), "the browser never holds the token");
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.doesNotMatch(cookie, /Secure/, "http://127.0.0.1 cannot keep a Secure cookie");
  const https = await login(ADMIN, "https://127.0.0.1/login");
  assert.match(https.headers.get("set-cookie") ?? "", /; Secure/);
});

test("the login cookie is accepted where the token is, and a state change with only the cookie needs this server's Origin", async () => {
  const cookie = (await login(ADMIN)).headers.get("set-cookie")!.split(";")[0]!;
  const noOrigin = await send("/api/sessions/x/reset", { method: "POST", headers: { cookie } });
  assert.equal((await jsonOf(noOrigin, 403)).error.code, "forbidden_origin");
  const otherLoopback = await send("/api/sessions/x/reset", { method: "POST", headers: { cookie, origin: "http://localhost:5173" } });
  assert.equal((await jsonOf(otherLoopback, 403)).error.code, "forbidden_origin", "another loopback page is not this server's own");
  const viewerCookie = (await login(VIEWER)).headers.get("set-cookie")!.split(";")[0]!;
  assert.notEqual(viewerCookie, cookie);
  const viewerPost = await send("/api/sessions/x/reset", { method: "POST", headers: { cookie: viewerCookie, origin: ORIGIN } });
  assert.equal((await jsonOf(viewerPost, 403)).error.code, "read_only");
});

test("the login POST refuses a wrong token (401, the form again), a foreign or missing Origin (403), and is off without a token", async () => {
  const wrong = await login("nope");
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get("set-cookie"), null);
  assert.match(await wrong.text(), /That token is not valid/);
  assert.equal((await login(ADMIN, `${ORIGIN}/login`, "http://localhost:5173")).status, 403);
  const off = await send("/login", {}, {});
  assert.equal((await jsonOf(off, 404)).error.code, "login_off");
});

test("changing the token signs every cookie out", async () => {
  const cookie = (await login(ADMIN)).headers.get("set-cookie")!.split(";")[0]!;
  const res = await send("/api/sessions", { headers: { cookie } }, { FAULTLINE_ADMIN_TOKEN: "a-new-admin-token" });
  assert.equal(res.status, 401);
});
