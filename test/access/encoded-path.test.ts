import { test } from "node:test";
import assert from "node:assert/strict";
import { app, jsonBody, request } from "../helpers/app.ts";

// Finding 4 of issue 27: the guards tested the raw path while the router routed the decoded one, so a
// percent-encoded /api or /mcp skipped the Origin guard. In process: each refusal happens before any route runs (the
// test env throws if a Durable Object is touched, so a request that slipped through would answer 500, not 403).

const EVIL = "https://evil.example";

test("a percent-encoded /api path from a foreign Origin gets 403, like the plain path", async () => {
  for (const path of ["/%61pi/sessions/victim/reset", "/%61%70%69/sessions/victim/reset", "/a%70i/sessions/victim/reset", "/api/%73essions/victim/reset", "/%61pi/sessions"]) {
    const res = await request(path, { method: "POST", headers: { origin: EVIL } });
    assert.equal((await jsonBody(res, 403)).error.code, "forbidden_origin", path);
  }
  const del = await request("/%61pi/sessions/victim", { method: "DELETE", headers: { origin: EVIL } });
  assert.equal((await jsonBody(del, 403)).error.code, "forbidden_origin");
});

test("a percent-encoded MCP path, in lower or upper case hex, from a foreign Origin gets 403 with a JSON-RPC error", async () => {
  for (const path of ["/%6dcp", "/%6Dcp", "/m%63p", "/s/victim/%6dcp", "/%73/victim/mcp", "/s/victim/%6D%63%70"]) {
    const res = await request(path, { method: "POST", headers: { origin: EVIL, "content-type": "application/json" }, body: "{}" });
    const body = await jsonBody(res, 403);
    assert.equal(body.jsonrpc, "2.0", path);
    assert.equal(body.error.code, -32600, path);
  }
});

test("an escape that decodes to another letter case reaches no route: %4D is M, and /Mcp is not /mcp", async () => {
  for (const [encoded, plain] of [["/%4Dcp", "/Mcp"], ["/%41pi/sessions/victim/reset", "/Api/sessions/victim/reset"]] as const) {
    const res = await request(encoded, { method: "POST", headers: { origin: EVIL, "content-type": "application/json" }, body: "{}" });
    const same = await request(plain, { method: "POST", headers: { origin: EVIL, "content-type": "application/json" }, body: "{}" });
    assert.equal(res.status, 404, encoded);
    assert.equal(same.status, 404, plain);
  }
});

test("a path whose decoding is ambiguous gets 400 invalid_path naming the rule, before any guard or route", async () => {
  const cases: Array<[string, RegExp]> = [
    ["/%2561pi/sessions/victim/reset", /double encoding/],
    ["/%256dcp", /double encoding/],
    ["/api/sessions/a%2Fb/reset", /encoded '\/'/],
    ["/api/sessions/a%5cb/reset", /encoded '\/' or '\\'/],
    ["/api/sessions/%zz/reset", /not followed by two hex digits/],
    ["/api/sessions/%C3%28/reset", /not valid UTF-8/],
    ["/api/sessions/a%00b/reset", /control character/],
  ];
  for (const [path, rule] of cases) {
    const body = await jsonBody(await request(path, { method: "POST", headers: { origin: EVIL } }), 400);
    assert.equal(body.error.code, "invalid_path", path);
    assert.match(body.error.message, rule, path);
  }
  const mcp = await jsonBody(await request("/s/a%2Fb/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), 400);
  assert.equal(mcp.jsonrpc, "2.0", "an MCP path is refused with a JSON-RPC error");
});

test("dot segments, plain or encoded, are resolved before the guards: /api/x/../../mcp is guarded as /mcp", async () => {
  for (const path of ["/api/x/../../mcp", "/api/x/%2e%2e/%2E%2E/mcp", "/x/.%2e/%61pi/sessions/victim/reset"]) {
    const res = await request(path, { method: "POST", headers: { origin: EVIL, "content-type": "application/json" }, body: "{}" });
    assert.equal(res.status, 403, path);
  }
});

test("CORS on the MCP endpoint reads the decoded path too: a preflight to /%6dcp from an allowed origin is answered", async () => {
  const res = await request("/%6dcp", { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" } });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:5173");
});

test("with the admin token set, a percent-encoded API or dashboard path still needs the token", async () => {
  const env = { FAULTLINE_ADMIN_TOKEN: "admin-token-0123456789" };
  for (const path of ["/%61pi/sessions", "/api/%73essions/x/journal", "/%73essions/x"]) {
    const res = await app.request(`http://127.0.0.1${path}`, {}, env);
    assert.equal(res.status, 401, path);
  }
});
