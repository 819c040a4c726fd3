import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonBody, request } from "../helpers/app.ts";

// The routes that need no Durable Object, answered by the app in process (test/helpers/app.ts).

type Json = Record<string, any>;

const json = jsonBody;

test("GET /health answers {ok: true}", async () => {
  assert.deepEqual(await json(await request("/health"), 200), { ok: true });
});

test("an unknown path gets a JSON 404 naming the method and the path", async () => {
  const body = await json(await request("/no/such/route", { method: "DELETE" }), 404);
  assert.deepEqual(body, { error: { code: "not_found", message: "No route for DELETE /no/such/route" } });
});

test("GET /api/scenarios lists each scenario with id, title, summary, layer, a JSON Schema for params and an example", async () => {
  const body = await json(await request("/api/scenarios"), 200);
  const ids = body.scenarios.map((s: Json) => s.id);
  for (const id of ["baseline", "errors.http_status_sequence", "errors.jsonrpc_error", "errors.tool_error", "elicitation.approval"]) {
    assert.ok(ids.includes(id), `${id} is in the catalogue`);
  }
  assert.equal(new Set(ids).size, ids.length, "ids are unique");
  for (const entry of body.scenarios) {
    assert.equal(typeof entry.title, "string", entry.id);
    assert.ok(entry.title.length > 0, entry.id);
    assert.ok(typeof entry.summary === "string" && entry.summary.length > 0, entry.id);
    assert.ok(["transport", "protocol", "interaction", "application"].includes(entry.layer), `${entry.id}: layer ${entry.layer}`);
    assert.equal(entry.params.type, "object", entry.id);
    assert.equal(typeof entry.params.properties, "object", entry.id);
    assert.equal(entry.params.additionalProperties, false, entry.id);
    assert.equal(typeof entry.example, "object", entry.id);
  }
});

test("the catalogue's params schema shows each param's default, e.g. errors.tool_error's nth", async () => {
  const body = await json(await request("/api/scenarios"), 200);
  const toolError = body.scenarios.find((s: Json) => s.id === "errors.tool_error");
  assert.equal(toolError.params.properties.nth.default, 1);
  assert.equal(toolError.params.properties.responseMode.default, "json", "the params every scenario accepts are listed too");
});

test("GET /classify serves the classify playground as HTML with the dashboard's security headers", async () => {
  const res = await request("/classify");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(res.headers.get("content-security-policy") ?? "", /default-src/);
  const html = await res.text();
  assert.match(html, /^<!doctype html>/i);
  assert.match(html, /<title>Classify/);
});

test("GET /assets/app.css serves the stylesheet with an ETag, and a matching If-None-Match gets 304", async () => {
  const res = await request("/assets/app.css");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/css/);
  assert.ok((await res.text()).length > 0);
  const etag = res.headers.get("etag");
  assert.ok(etag, "an ETag is sent");
  const again = await request("/assets/app.css", { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
});

test("GET /assets/ of a name that is not an asset gets 404", async () => {
  const res = await request("/assets/nothing.js");
  assert.equal(res.status, 404);
  await res.arrayBuffer();
});

test("no Protected Resource Metadata is served at the origin: each MCP URL has its own (RFC 9728 §3.1), see test/oauth/", async () => {
  const body = await json(await request("https://faultline.localhost/.well-known/oauth-protected-resource"), 404);
  assert.equal(body.error.code, "not_found");
  assert.match(body.error.message, /oauth-protected-resource\/s\/\{id\}\/mcp/);
});
