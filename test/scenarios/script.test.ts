import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { classify, type Verdict } from "../../src/classify/index.ts";
import { createSession, legacySession, MODERN, modernMeta, postModern, startServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

type Json = Record<string, any>;

/** Calls a tool in 2026-07-28 and classifies the answer. */
async function callTool(mcpUrl: string, id: number, name: string, args: Json = {}): Promise<{ status: number; body: Json | undefined; verdict: Verdict }> {
  const params = { name, arguments: args };
  const res = await postModern(mcpUrl, id, "tools/call", params);
  const text = await res.text();
  const request = { headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name }, body: { jsonrpc: "2.0", id, method: "tools/call", params: { ...params, _meta: modernMeta() } } };
  const verdict = classify({ request, response: { status: res.status, headers: Object.fromEntries(res.headers), body: text } });
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, verdict };
}

const echo = (mcpUrl: string, id: number) => callTool(mcpUrl, id, "echo", { text: `call ${id}` });

function createRaw(params: Json): Promise<Response> {
  return fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "script", params }),
  });
}

async function validationIssues(params: Json): Promise<{ message: string; issues: Json[] }> {
  const res = await createRaw(params);
  const body = (await res.json()) as Json;
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.equal(body.error.code, "invalid_request");
  return body.error;
}

const nth = (n: number, fault: Json) => ({ match: { method: "tools/call", nth: n }, fault });

test("script plays 503, 503, isError, then success, as its catalogue example describes", async () => {
  const { mcpUrl } = await createSession(server, "script", {
    rules: [nth(1, { kind: "http_status", status: 503, retryAfter: 1 }), nth(2, { kind: "http_status", status: 503 }), nth(3, { kind: "tool_error", text: "still warming up" })],
  });
  const first = await echo(mcpUrl, 1);
  assert.equal(first.status, 503);
  assert.equal(first.verdict.outcome, "HTTP_ERROR");
  assert.equal(first.verdict.retry.decision, "conditional");
  assert.equal(first.verdict.retry.afterMs, 1000);
  assert.equal((await echo(mcpUrl, 2)).status, 503);
  const third = await echo(mcpUrl, 3);
  assert.equal(third.body?.result.isError, true);
  assert.equal(third.body?.result.content[0].text, "still warming up");
  assert.equal(third.verdict.outcome, "TOOL_ERROR");
  const fourth = await echo(mcpUrl, 4);
  assert.equal(fourth.body?.result.content[0].text, "call 4");
  assert.equal(fourth.verdict.outcome, "TOOL_SUCCESS");
});

test("script's catalogue example is a valid params object", async () => {
  const res = await fetch(`${server.url}/api/scenarios`);
  const entry = ((await res.json()) as Json).scenarios.find((s: Json) => s.id === "script");
  assert.equal((await createRaw(entry.example)).status, 201);
});

test("script with no rules lets every request through", async () => {
  const { mcpUrl } = await createSession(server, "script");
  assert.equal((await echo(mcpUrl, 1)).verdict.outcome, "TOOL_SUCCESS");
});

test("script's first matching rule wins when two rules match the same request", async () => {
  const { mcpUrl } = await createSession(server, "script", {
    rules: [nth(1, { kind: "jsonrpc_error", code: -32603, message: "first" }), { match: {}, fault: { kind: "jsonrpc_error", code: -32000, message: "catch-all" } }],
  });
  assert.equal((await echo(mcpUrl, 1)).body?.error.message, "first");
  assert.equal((await echo(mcpUrl, 2)).body?.error.message, "catch-all");
});

test("script with `from` faults the nth matching request and every later one", async () => {
  const { mcpUrl } = await createSession(server, "script", { rules: [{ match: { method: "tools/call", from: 2 }, fault: { kind: "http_status", status: 500 } }] });
  const statuses = [];
  for (const id of [1, 2, 3, 4]) statuses.push((await echo(mcpUrl, id)).status);
  assert.deepEqual(statuses, [200, 500, 500, 500]);
});

test("script with `every` faults every kth matching request", async () => {
  const { mcpUrl } = await createSession(server, "script", { rules: [{ match: { method: "tools/call", every: 2 }, fault: { kind: "rate_limited", retryAfter: 3 } }] });
  const statuses = [];
  for (const id of [1, 2, 3, 4]) statuses.push((await echo(mcpUrl, id)).status);
  assert.deepEqual(statuses, [200, 429, 200, 429]);
});

test("script with `tool` counts and faults only calls of that tool", async () => {
  const { mcpUrl } = await createSession(server, "script", { rules: [{ match: { tool: "place_order", nth: 2 }, fault: { kind: "tool_error" } }] });
  assert.equal((await callTool(mcpUrl, 1, "place_order", { item: "tea", quantity: 1 })).verdict.outcome, "TOOL_SUCCESS");
  assert.equal((await echo(mcpUrl, 2)).verdict.outcome, "TOOL_SUCCESS");
  assert.equal((await callTool(mcpUrl, 3, "place_order", { item: "tea", quantity: 1 })).verdict.outcome, "TOOL_ERROR");
});

test("script counts a filter's requests even when an earlier rule won them", async () => {
  const { mcpUrl } = await createSession(server, "script", {
    rules: [{ match: { tool: "echo", nth: 1 }, fault: { kind: "http_status", status: 502 } }, { match: { method: "tools/call", nth: 2 }, fault: { kind: "http_status", status: 504 } }],
  });
  assert.equal((await echo(mcpUrl, 1)).status, 502);
  assert.equal((await echo(mcpUrl, 2)).status, 504);
  assert.equal((await echo(mcpUrl, 3)).status, 200);
});

test("script's seeded probability gives the same pattern in two sessions", async () => {
  const rules = [{ match: { method: "tools/call", probability: 0.5, seed: 42 }, fault: { kind: "http_status", status: 503 } }];
  const patterns: string[] = [];
  for (let run = 0; run < 2; run++) {
    const { mcpUrl } = await createSession(server, "script", { rules });
    let pattern = "";
    for (let id = 1; id <= 16; id++) pattern += (await echo(mcpUrl, id)).status === 503 ? "x" : ".";
    patterns.push(pattern);
  }
  assert.equal(patterns[0], patterns[1]);
  assert.match(patterns[0] ?? "", /x/);
  assert.match(patterns[0] ?? "", /\./);
});

test("script can fault a legacy initialize, and the next initialize succeeds", async () => {
  const { mcpUrl } = await createSession(server, "script", { rules: [{ match: { method: "initialize", nth: 1 }, fault: { kind: "http_status", status: 503 } }] });
  await assert.rejects(legacySession(mcpUrl), /status 503/);
  const session = await legacySession(mcpUrl);
  assert.ok(session.sessionId);
});

test("a script rule with an unknown fault kind is refused with 400 naming params.rules.2.fault.kind", async () => {
  const error = await validationIssues({ rules: [nth(1, { kind: "tool_error" }), nth(2, { kind: "tool_error" }), nth(3, { kind: "explode" })] });
  assert.equal(error.issues[0]?.path, "params.rules.2.fault.kind");
  assert.match(error.message, /^params\.rules\.2\.fault\.kind: /);
});

test("a script rule with an out-of-range fault field is refused with 400 naming that field", async () => {
  const error = await validationIssues({ rules: [nth(1, { kind: "http_status", status: 200 })] });
  assert.equal(error.issues[0]?.path, "params.rules.0.fault.status");
});

test("a script rule with a misspelt match key is refused with 400 naming the key", async () => {
  const error = await validationIssues({ rules: [{ match: { method: "tools/call", nht: 1 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match.nht");
  assert.equal(error.issues[0]?.rule, "unrecognized_keys");
});

test("a script rule with both nth and every is refused with 400", async () => {
  const error = await validationIssues({ rules: [{ match: { nth: 1, every: 2 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match");
  assert.match(error.issues[0]?.message, /at most one of nth, from and every/);
});

test("a script rule without a fault is refused with 400 naming params.rules.0.fault", async () => {
  const error = await validationIssues({ rules: [{ match: { nth: 1 } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.fault");
});

test("a script probability above 1 is refused with 400 naming params.rules.0.match.probability", async () => {
  const error = await validationIssues({ rules: [{ match: { probability: 1.5 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match.probability");
});
