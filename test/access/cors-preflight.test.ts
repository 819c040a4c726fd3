import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "../helpers/app.ts";

// CORS preflights on the MCP endpoints, answered by the app in process before any session is touched
// (cors.test.ts checks the headers on real answers).

const PAGE = "http://localhost:5173";

function preflight(path: string, requestHeaders: string, origin = PAGE) {
  return request(path, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": requestHeaders },
  });
}

test("the preflight on /mcp and /s/{id}/mcp answers 204 for a loopback origin, allowing POST, GET and DELETE", async () => {
  for (const path of ["/mcp", "/s/abc/mcp"]) {
    const res = await preflight(path, "content-type");
    assert.equal(res.status, 204, path);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE, path);
    assert.deepEqual(res.headers.get("access-control-allow-methods")?.split(", ").sort(), ["DELETE", "GET", "POST"]);
    assert.equal(res.headers.get("access-control-allow-credentials"), null, "MCP authenticates by header, never by cookie");
    assert.match(res.headers.get("vary") ?? "", /Origin/);
  }
});

test("the preflight reflects the MCP request headers asked for, Mcp-Param-* included, and leaves out any other", async () => {
  const asked = "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-City, Last-Event-ID, X-Evil, Cookie";
  const res = await preflight("/mcp", asked);
  assert.equal(res.status, 204);
  assert.equal(
    res.headers.get("access-control-allow-headers"),
    "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, mcp-param-city, last-event-id",
  );
  const bad = await preflight("/mcp", "mcp-param-a b, x-other");
  assert.equal(bad.headers.get("access-control-allow-headers"), null, "a name that is not a token, or not an MCP header, is not allowed");
});

test("the preflight from a foreign origin gets 403 with no CORS headers; ALLOWED_ORIGINS is the only way in", async () => {
  const res = await preflight("/mcp", "content-type", "https://evil.example");
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("access-control-allow-origin"), null);
});

test("the management API answers a preflight with no CORS headers: it stays same-origin", async () => {
  const res = await preflight("/api/scenarios", "content-type");
  assert.equal(res.headers.get("access-control-allow-origin"), null);
  const get = await request("/api/scenarios", { headers: { origin: PAGE } });
  assert.equal(get.status, 200);
  assert.equal(get.headers.get("access-control-allow-origin"), null);
});

