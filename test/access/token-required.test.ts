import { test } from "node:test";
import assert from "node:assert/strict";
import { app, jsonBody } from "../helpers/app.ts";

// Without FAULTLINE_ADMIN_TOKEN, a request from beyond loopback finds the API and the dashboard off (503, saying
// why), in process: the refusal comes before any route, so no Durable Object is needed.

const untouchable = new Proxy({}, { get: () => { throw new Error("a Durable Object namespace was touched"); } });
const bindings = { SESSIONS: untouchable, INDEX: untouchable };
const send = (url: string, init: RequestInit = {}, vars: Record<string, string> = {}) => app.request(url, init, { ...bindings, ...vars });
const PUBLIC_NAME = { ALLOWED_HOSTS: "faultline.example" };

test("without the admin token, the API on a non-loopback Host answers 503 JSON naming FAULTLINE_ADMIN_TOKEN", async () => {
  const cases: Array<[string, RequestInit]> = [
    ["/api/sessions", {}],
    ["/api/sessions/x", {}],
    ["/api/sessions/x/journal", {}],
    ["/api/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: '{"scenario":"baseline"}' }],
    ["/api/sessions/x", { method: "DELETE" }],
  ];
  for (const [path, init] of cases) {
    for (const [origin, vars] of [["http://faultline.example", PUBLIC_NAME], ["https://faultline.someone.workers.dev", {}]] as const) {
      const body = await jsonBody(await send(`${origin}${path}`, init, vars), 503);
      assert.equal(body.error.code, "admin_token_required", `${origin}${path}`);
      assert.match(body.error.message, /FAULTLINE_ADMIN_TOKEN is not set/);
    }
  }
});

test("without the admin token, the dashboard on a non-loopback Host answers 503 with a page saying why", async () => {
  for (const path of ["/", "/sessions/x"]) {
    const res = await send(`http://faultline.example${path}`, { headers: { accept: "text/html" } }, PUBLIC_NAME);
    assert.equal(res.status, 503, path);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await res.text(), /FAULTLINE_ADMIN_TOKEN is not set/);
  }
});

test("without the admin token, a loopback Host is served unless FAULTLINE_PUBLIC_URL publishes the server beyond loopback", async () => {
  const create = { method: "POST", headers: { "content-type": "application/json" }, body: '{"scenario":"no-such-scenario"}' };
  // A 400 for the body shows the request passed the rule (the body is checked before any session is touched).
  assert.equal((await send("http://127.0.0.1:8787/api/sessions", create)).status, 400);
  assert.equal((await send("http://localhost:8787/api/sessions", create, { FAULTLINE_PUBLIC_URL: "http://localhost:8787" })).status, 400);
  const published = await send("http://127.0.0.1:8787/api/sessions", create, { FAULTLINE_PUBLIC_URL: "https://faultline.example.com" });
  assert.equal((await jsonBody(published, 503)).error.code, "admin_token_required");
});

test("the public routes stay up beyond loopback without a token: health, the scenario catalogue, the classifier page and the MCP preflight", async () => {
  assert.equal((await send("http://faultline.example/health", {}, PUBLIC_NAME)).status, 200);
  assert.equal((await send("http://faultline.example/api/scenarios", {}, PUBLIC_NAME)).status, 200);
  assert.equal((await send("http://faultline.example/classify", { headers: { accept: "text/html" } }, PUBLIC_NAME)).status, 200);
  const preflight = await send("http://faultline.example/mcp", { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" } }, PUBLIC_NAME);
  assert.equal(preflight.status, 204);
});

test("with the admin token set, a non-loopback Host gets the token's 401, not the 503", async () => {
  const res = await send("http://faultline.example/api/sessions", {}, { ...PUBLIC_NAME, FAULTLINE_ADMIN_TOKEN: "admin-token-0123456789" });
  assert.equal((await jsonBody(res, 401)).error.code, "unauthorized");
});
