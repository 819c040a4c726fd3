import { test } from "node:test";
import assert from "node:assert/strict";
import { app, jsonBody, request } from "../helpers/app.ts";

// The Host and Origin guard and the JSON-only rule, answered in process: each refusal happens before any route runs,
// so no Durable Object is needed (the test env throws if one is touched).


const refused = jsonBody;

const FOREIGN = "http://evil.example:8787";

test("a foreign Host gets 403 with a JSON body on the API, the dashboard, the classifier, health and MCP", async () => {
  for (const path of ["/api/sessions", "/api/scenarios", "/api/sessions/x/journal", "/", "/sessions/x", "/classify", "/health"]) {
    const body = await refused(await request(`${FOREIGN}${path}`, { headers: { origin: FOREIGN } }), 403);
    assert.equal(body.error.code, "forbidden_host", path);
    assert.match(body.error.message, /Host 'evil\.example:8787' is not allowed.*ALLOWED_HOSTS/, path);
  }
  for (const path of ["/mcp", "/s/abc/mcp"]) {
    const body = await refused(await request(`${FOREIGN}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), 403);
    assert.equal(body.jsonrpc, "2.0", `${path} answers a JSON-RPC error`);
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /Host 'evil\.example:8787'/);
  }
});

test("a loopback Host is served, and ALLOWED_HOSTS extends the list", async () => {
  assert.equal((await request("http://localhost:8787/api/scenarios")).status, 200);
  assert.equal((await request("http://[::1]:8787/health")).status, 200);
  const env = { ALLOWED_HOSTS: "faultline.example, other.example" };
  assert.equal((await app.request("http://faultline.example/health", {}, env)).status, 200);
  assert.equal((await app.request("http://third.example/health", {}, env)).status, 403);
});

test("the cross-site text/plain POST to /api/sessions/{id}/reset gets 403, before any session is touched", async () => {
  const body = await refused(
    await request("/api/sessions/some-id/reset", { method: "POST", headers: { origin: "https://evil.example", "content-type": "text/plain" }, body: "x" }),
    403,
  );
  assert.equal(body.error.code, "forbidden_origin");
  assert.match(body.error.message, /Origin 'https:\/\/evil\.example' is not allowed.*ALLOWED_ORIGINS/);
});

test("a state-changing /api request from a foreign Origin gets 403 whatever its body", async () => {
  const cases: Array<[string, string]> = [["POST", "/api/sessions"], ["PUT", "/api/sessions/x/scenario"], ["DELETE", "/api/sessions/x"]];
  for (const [method, path] of cases) {
    const res = await request(path, { method, headers: { origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
    assert.equal((await refused(res, 403)).error.code, "forbidden_origin", `${method} ${path}`);
  }
  const nullOrigin = await request("/api/sessions", { method: "POST", headers: { origin: "null", "content-type": "application/json" }, body: "{}" });
  assert.equal(nullOrigin.status, 403, "a sandboxed frame's Origin: null is foreign too");
});

test("ALLOWED_ORIGINS admits an exact origin and nothing else", async () => {
  const env = { ALLOWED_ORIGINS: "https://tools.example" };
  const post = (origin: string) =>
    app.request("http://127.0.0.1/mcp", { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" }, env);
  assert.equal((await post("https://tools.example.evil.example")).status, 403);
  assert.equal((await post("http://tools.example")).status, 403, "the scheme is part of the origin");
  const admitted = await app.request("http://127.0.0.1/api/sessions/x/reset", { method: "POST", headers: { origin: "https://tools.example", "content-type": "text/plain" }, body: "x" }, env);
  assert.equal(admitted.status, 415, "the allowed origin passes the Origin guard and meets the JSON-only rule next");
});

test("the MCP endpoint refuses a foreign Origin on every method", async () => {
  for (const method of ["GET", "POST", "DELETE"]) {
    const res = await request("/s/abc/mcp", { method, headers: { origin: "https://evil.example" } });
    assert.equal((await refused(res, 403)).error.code, -32600, method);
  }
});

test("a same-origin POST, PUT or DELETE on /api with a body that is not application/json gets 415 naming the rule", async () => {
  const origin = "http://127.0.0.1";
  for (const [method, path, type] of [
    ["POST", "/api/sessions/x/reset", "text/plain"],
    ["POST", "/api/sessions", "application/x-www-form-urlencoded"],
    ["PUT", "/api/sessions/x/scenario", "multipart/form-data; boundary=x"],
    ["DELETE", "/api/sessions/x", "text/plain;charset=UTF-8"],
  ] as const) {
    const body = await refused(await request(path, { method, headers: { origin, "content-type": type }, body: "a=b" }), 415);
    assert.equal(body.error.code, "unsupported_media_type");
    assert.match(body.error.message, new RegExp(`${method} ${path.replace(/\//g, "\\/")} takes an application/json body or none`));
  }
  const untyped = await request("/api/sessions/x/reset", { method: "POST", body: new Blob(["x"]) });
  assert.equal((await refused(untyped, 415)).error.message.includes("a body with no Content-Type"), true);
});

test("reads and cross-origin GETs of the dashboard are not refused by the Origin guard", async () => {
  const res = await request("/api/scenarios", { headers: { origin: "https://evil.example" } });
  assert.equal(res.status, 200, "a GET changes nothing; the API sends no CORS headers, so the page cannot read it");
  assert.equal(res.headers.get("access-control-allow-origin"), null);
});
