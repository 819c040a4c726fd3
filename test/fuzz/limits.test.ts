import { test } from "node:test";
import assert from "node:assert/strict";
import { canonical } from "../../src/mcp/call-params.ts";
import { jsonDepth, MAX_JSON_DEPTH, parseJsonLimited } from "../../src/base/json-limits.ts";
import { createSession, modernMeta, postModern, useServer } from "../helpers/server.ts";

// Depth and size limits at the door, and everything that walks a value staying safe far past them.

const server = useServer();
type Json = Record<string, any>;

const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

test("jsonDepth counts brackets outside strings, escapes included", () => {
  assert.equal(jsonDepth('{"a":[1,{"b":"[[[\\"{"}]}'), 3);
  assert.equal(jsonDepth(nested(300)), 300);
  assert.equal(jsonDepth("42"), 0);
});

test("parseJsonLimited refuses nesting past 256 levels and accepts it at 256", () => {
  assert.equal(parseJsonLimited(nested(MAX_JSON_DEPTH)).ok, true);
  const refused = parseJsonLimited(nested(MAX_JSON_DEPTH + 1));
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.reason, "too_deep");
  assert.match(!refused.ok ? refused.message : "", /256 levels/);
});

test("canonical() writes a value nested 100,000 levels deep without overflowing the stack, keys sorted", () => {
  const deep = JSON.parse(nested(100_000));
  assert.equal(canonical(deep).length, 200_001);
  assert.equal(canonical({ b: [1, { d: 1, c: 2 }], a: null }), '{"a":null,"b":[1,{"c":2,"d":1}]}');
});

test("session params nested 20,000 levels deep get 400 naming the nesting limit, not 500", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: `{"scenario":"baseline","params":{"data":${nested(20_000)}}}`,
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as Json;
  assert.equal(body.error.code, "too_deep");
  assert.match(body.error.message, /deeper than 256 levels/);
});

test("a sessions API body over 64 KiB gets 413 naming the limit", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "baseline", params: { pad: "x".repeat(70_000) } }),
  });
  assert.equal(res.status, 413);
  assert.match(((await res.json()) as Json).error.message, /64 KiB/);
});

test("/classify refuses JSON nested past 256 levels with 400 naming the limit", async () => {
  const res = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"status":200,"body":${nested(5_000)}}` });
  assert.equal(res.status, 400);
  assert.match(((await res.json()) as Json).error.message, /nests deeper than 256 levels/);
});

test("/classify takes 1 MiB, or 8 MiB for a HAR document, and names the limit past it", async () => {
  const big = JSON.stringify({ status: 200, headers: {}, body: "x".repeat(1_100_000) });
  const refused = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
  assert.equal(refused.status, 413);
  assert.match(((await refused.json()) as Json).error.message, /1 MiB/);

  const entry = (text: string) => ({
    request: { method: "POST", url: "http://x/mcp", headers: [], postData: { mimeType: "application/json", text: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a", arguments: { pad: text } } }) } },
    response: { status: 200, headers: [{ name: "content-type", value: "application/json" }], content: { mimeType: "application/json", text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }) } },
  });
  const har = (size: number) => JSON.stringify({ log: { version: "1.2", entries: [entry("y".repeat(size))] } });
  const accepted = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: har(3_000_000) });
  assert.equal(accepted.status, 200, await accepted.clone().text());
  assert.equal(((await accepted.json()) as Json).entries.length, 1);
  const tooBig = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": "application/json" }, body: har(9_000_000) });
  assert.equal(tooBig.status, 413);
  assert.match(((await tooBig.json()) as Json).error.message, /8 MiB/);
});

test("MCP requests nested 30,000 levels deep leave /checks and the journal answering 200", async () => {
  const session = await createSession(server, "baseline");
  for (const id of [1, 2]) {
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${nested(30_000, '"x"')}},"_meta":${JSON.stringify(modernMeta())}}}`;
    const res = await fetch(session.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
      body,
    });
    assert.ok(res.status < 500, `status ${res.status}`);
    await res.text();
  }
  await (await postModern(session.mcpUrl, 3, "tools/call", { name: "echo", arguments: { text: "after" } })).text();
  let entries: Json[] = [];
  for (let i = 0; i < 100 && entries.length < 3; i++) {
    const page = await fetch(`${server.url}/api/sessions/${session.id}/journal?limit=10`);
    assert.equal(page.status, 200);
    entries = ((await page.json()) as Json).entries;
    if (entries.length < 3) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(entries.length, 3);
  const checks = await fetch(`${server.url}/api/sessions/${session.id}/checks`);
  assert.equal(checks.status, 200, await checks.clone().text());
});

test("an MCP request over 1 MiB gets 413 naming the limit, and the server keeps answering", async () => {
  const session = await createSession(server, "baseline");
  const res = await fetch(session.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "x".repeat(1_200_000) } } }),
  });
  assert.equal(res.status, 413);
  const body = (await res.json()) as Json;
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /1048576 bytes|1 MiB/);
  const next = await postModern(session.mcpUrl, 2, "tools/call", { name: "echo", arguments: { text: "still here" } });
  assert.equal(next.status, 200);
  assert.match(await next.text(), /still here/);
});

test("an MCP request nested past 256 levels gets 400 with -32600 naming the nesting limit; 256 levels are served", async () => {
  const session = await createSession(server, "baseline");
  const send = (id: number, depth: number) =>
    fetch(session.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
      // The envelope itself nests 3 levels (message, params, arguments) around the text's value.
      body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","extra":${nested(depth - 3)}},"_meta":${JSON.stringify(modernMeta())}}}`,
    });
  const refused = await send(1, MAX_JSON_DEPTH + 1);
  assert.equal(refused.status, 400);
  const body = (await refused.json()) as Json;
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /nests deeper than 256 levels/);
  const served = await send(2, MAX_JSON_DEPTH);
  assert.notEqual(served.status, 400, await served.clone().text());
  await served.text();
});
