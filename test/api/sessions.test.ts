import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// The sessions API against workerd, where the Durable Objects live. What it refuses before reaching one is tested
// in process in sessions-input.test.ts.
const server = useServer();

type Json = Record<string, any>;

function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return fetch(`${server.url}/api${path}`, {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body }),
  });
}

async function json(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text) as Json;
}

/** A fresh slug, unique per call, so tests never share a session. */
let slugs = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++slugs}`;

/** Every value in `expected` is in `actual` (which may add defaults, also inside nested objects). */
function assertContains(actual: unknown, expected: unknown, path: string): void {
  if (expected !== null && typeof expected === "object") {
    assert.equal(typeof actual, "object", path);
    assert.equal(Array.isArray(actual), Array.isArray(expected), path);
    if (Array.isArray(expected)) assert.equal((actual as unknown[]).length, expected.length, path);
    for (const [key, value] of Object.entries(expected)) assertContains((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    return;
  }
  assert.deepEqual(actual, expected, path);
}

async function view(id: string): Promise<Json> {
  return json(await api(`/sessions/${id}`), 200);
}

function echo(mcpUrl: string, id: number, text = "hi") {
  return postModern(mcpUrl, id, "tools/call", { name: "echo", arguments: { text } });
}

test("creating a session returns 201 with id, scenario, params with defaults, an absolute mcpUrl and createdAt", async () => {
  const session = await json(await api("/sessions", { body: { scenario: "errors.tool_error", params: { nth: 2 } } }), 201);
  assert.deepEqual(Object.keys(session).sort(), ["createdAt", "id", "judging", "mcpUrl", "params", "scenario"]);
  assert.equal(session.scenario, "errors.tool_error");
  assert.deepEqual(session.params, {
    nth: 2,
    text: "The tool failed: upstream inventory service is unavailable (injected by Faultline).",
    tools: ["run_configured_test_scenario"],
    responseMode: "json",
  });
  assert.equal(session.mcpUrl, `${server.url}/s/${session.id}/mcp`);
  assert.ok(!Number.isNaN(Date.parse(session.createdAt)), session.createdAt);
});

test("a session created without an id gets a random 128-bit id of 32 hex characters", async () => {
  const first = await json(await api("/sessions", { body: { scenario: "baseline" } }), 201);
  const second = await json(await api("/sessions", { body: { scenario: "baseline" } }), 201);
  assert.match(first.id, /^[0-9a-f]{32}$/);
  assert.match(second.id, /^[0-9a-f]{32}$/);
  assert.notEqual(first.id, second.id);
});

test("a session can be created with a slug id and is served at /s/{slug}/mcp", async () => {
  const id = slug("my-slug");
  const session = await json(await api("/sessions", { body: { scenario: "baseline", id } }), 201);
  assert.equal(session.id, id);
  assert.equal(session.mcpUrl, `${server.url}/s/${id}/mcp`);
  const res = await echo(session.mcpUrl, 1, "slug");
  assert.equal(res.status, 200);
  assert.equal((await res.json()).result.content[0].text, "slug");
});

test("creating a session with an id that exists gives 409", async () => {
  const id = slug("dup");
  await json(await api("/sessions", { body: { scenario: "baseline", id } }), 201);
  const body = await json(await api("/sessions", { body: { scenario: "errors.tool_error", id } }), 409);
  assert.equal(body.error.code, "session_exists");
  assert.equal((await view(id)).scenario, "baseline", "the existing session is untouched");
});

test("/mcp serves the default baseline session with no set-up; it is then listed, counted, and the same as /s/default/mcp", async () => {
  const first = await postModern(`${server.url}/mcp`, 1, "tools/call", { name: "echo", arguments: { text: "no set-up" } });
  assert.equal(first.status, 200);
  assert.match(await first.text(), /no set-up/);
  const second = await postModern(`${server.url}/s/default/mcp`, 2, "tools/list");
  assert.equal(second.status, 200);
  await second.text();
  const view = await json(await api("/sessions/default"), 200);
  assert.equal(view.scenario, "baseline");
  assert.equal(view.counters.posts, 2);
  const list = await json(await api("/sessions"), 200);
  assert.equal(list.sessions.filter((s: Json) => s.id === "default").length, 1);
});

test("GET /api/sessions lists created sessions with their scenario and mcpUrl", async () => {
  const id = slug("listed");
  await json(await api("/sessions", { body: { scenario: "errors.jsonrpc_error", id } }), 201);
  const body = await json(await api("/sessions"), 200);
  const entry = body.sessions.find((s: Json) => s.id === id);
  assert.ok(entry, `session ${id} is listed`);
  assert.equal(entry.scenario, "errors.jsonrpc_error");
  assert.equal(entry.mcpUrl, `${server.url}/s/${id}/mcp`);
});

test("GET /api/sessions/{id} shows the counters of the requests the session served", async () => {
  const session = await createSession(server, "baseline");
  await (await echo(session.mcpUrl, 1)).arrayBuffer();
  await (await postModern(session.mcpUrl, 2, "tools/list")).arrayBuffer();
  const body = await view(session.id);
  assert.equal(body.id, session.id);
  assert.equal(body.scenario, "baseline");
  assert.equal(body.counters.posts, 2);
  assert.equal(body.counters["method:tools/call"], 1);
  assert.equal(body.counters["method:tools/list"], 1);
  assert.equal(body.counters["tool-calls:echo"], 1);
});

test("PUT /api/sessions/{id}/scenario changes the scenario from the next request and resets the counters", async () => {
  const session = await createSession(server, "baseline");
  const before = await (await echo(session.mcpUrl, 1)).json();
  assert.equal(before.result.isError, undefined);

  const changed = await json(
    await api(`/sessions/${session.id}/scenario`, { method: "PUT", body: { scenario: "errors.tool_error", params: { tools: ["echo"], text: "now failing" } } }),
    200,
  );
  assert.equal(changed.scenario, "errors.tool_error");
  assert.deepEqual(changed.params, { nth: 1, text: "now failing", tools: ["echo"], responseMode: "json" });
  assert.deepEqual(changed.counters, {});

  const after = await (await echo(session.mcpUrl, 2)).json();
  assert.equal(after.result.isError, true);
  assert.equal(after.result.content[0].text, "now failing");
  assert.equal((await view(session.id)).counters.posts, 1);
});

test("PUT /api/sessions/{id}/scenario also changes the scenario shown in the list", async () => {
  const id = slug("relisted");
  await json(await api("/sessions", { body: { scenario: "baseline", id } }), 201);
  await json(await api(`/sessions/${id}/scenario`, { method: "PUT", body: { scenario: "errors.jsonrpc_error" } }), 200);
  const body = await json(await api("/sessions"), 200);
  assert.equal(body.sessions.find((s: Json) => s.id === id)?.scenario, "errors.jsonrpc_error");
});

test("PUT /api/sessions/{id}/scenario on an unknown session gives 404", async () => {
  const body = await json(await api(`/sessions/${slug("nobody")}/scenario`, { method: "PUT", body: { scenario: "baseline" } }), 404);
  assert.equal(body.error.code, "session_not_found");
});

test("POST /api/sessions/{id}/reset clears the counters and keeps the scenario", async () => {
  const session = await createSession(server, "errors.tool_error", { tools: ["echo"], nth: 2 });
  for (const id of [1, 2]) await (await echo(session.mcpUrl, id)).arrayBuffer();
  assert.equal((await view(session.id)).counters.posts, 2);

  const reset = await json(await api(`/sessions/${session.id}/reset`, { method: "POST" }), 200);
  assert.deepEqual(reset.counters, {});
  assert.equal(reset.scenario, "errors.tool_error");

  // The nth-call count starts again: call 1 succeeds, call 2 fails.
  assert.equal((await (await echo(session.mcpUrl, 3)).json()).result.isError, undefined);
  assert.equal((await (await echo(session.mcpUrl, 4)).json()).result.isError, true);
});

test("POST /api/sessions/{id}/reset ends the session's legacy MCP sessions", async () => {
  const session = await createSession(server, "baseline");
  const legacy = await legacySession(session.mcpUrl);
  assert.equal((await json(await api(`/sessions/${session.id}`), 200)).mcpSessions, 1);
  await json(await api(`/sessions/${session.id}/reset`, { method: "POST" }), 200);
  const res = await legacy.post({ id: 1, method: "ping" });
  await res.arrayBuffer();
  assert.equal(res.status, 404);
  assert.equal((await view(session.id)).mcpSessions, 0);
});

test("POST /api/sessions/{id}/reset on an unknown session gives 404", async () => {
  await json(await api(`/sessions/${slug("nobody")}/reset`, { method: "POST" }), 404);
});

test("DELETE /api/sessions/{id} erases the session: then GET gives 404, the MCP endpoint 404, and the list omits it", async () => {
  const id = slug("doomed");
  const session = await json(await api("/sessions", { body: { scenario: "baseline", id } }), 201);
  await (await echo(session.mcpUrl, 1)).arrayBuffer();

  const res = await api(`/sessions/${id}`, { method: "DELETE" });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");

  await json(await api(`/sessions/${id}`), 404);
  const mcp = await echo(session.mcpUrl, 2);
  await mcp.arrayBuffer();
  assert.equal(mcp.status, 404);
  const list = await json(await api("/sessions"), 200);
  assert.equal(list.sessions.some((s: Json) => s.id === id), false);
});

test("an erased slug id can be created again, with fresh counters", async () => {
  const id = slug("reborn");
  const first = await json(await api("/sessions", { body: { scenario: "baseline", id } }), 201);
  await (await echo(first.mcpUrl, 1)).arrayBuffer();
  assert.equal((await api(`/sessions/${id}`, { method: "DELETE" })).status, 204);
  await json(await api("/sessions", { body: { scenario: "errors.tool_error", id } }), 201);
  const body = await view(id);
  assert.equal(body.scenario, "errors.tool_error");
  assert.deepEqual(body.counters, {});
});

test("DELETE /api/sessions/{id} on an unknown session gives 404", async () => {
  const res = await api(`/sessions/${slug("nobody")}`, { method: "DELETE" });
  assert.equal((await json(res, 404)).error.code, "session_not_found");
});

test("GET /api/sessions/{id} on an unknown session gives 404", async () => {
  const body = await json(await api(`/sessions/${slug("nobody")}`), 404);
  assert.equal(body.error.code, "session_not_found");
});

test("the MCP endpoint of an unknown session gives 404", async () => {
  const res = await echo(`${server.url}/s/${slug("nobody")}/mcp`, 1);
  await res.arrayBuffer();
  assert.equal(res.status, 404);
});

test("every catalogue example is accepted: a session created with it gives 201", async () => {
  const { scenarios } = await json(await api("/scenarios"), 200);
  for (const entry of scenarios as Json[]) {
    // A replay's example names a recorded session, which must exist first: test/replay/ creates them.
    if (entry.id === "replay") continue;
    const res = await api("/sessions", { body: { scenario: entry.id, params: entry.example } });
    const created = await json(res, 201);
    assert.equal(created.scenario, entry.id);
    assertContains(created.params, entry.example, entry.id);
  }
});

test("changing to a scenario with invalid params gives 400 and leaves the session as it was", async () => {
  const session = await createSession(server, "baseline");
  const body = await json(await api(`/sessions/${session.id}/scenario`, { method: "PUT", body: { scenario: "errors.jsonrpc_error", params: { nth: -1 } } }), 400);
  assert.equal(body.error.issues[0].path, "params.nth");
  assert.equal((await view(session.id)).scenario, "baseline");
});

test("50 concurrent POSTs to a session's MCP endpoint are counted exactly 50 times", async () => {
  const session = await createSession(server, "baseline");
  const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => echo(session.mcpUrl, i + 1, `call ${i + 1}`)));
  const bodies = await Promise.all(responses.map((r) => r.json() as Promise<Json>));
  assert.deepEqual(
    responses.map((r) => r.status),
    Array(50).fill(200),
  );
  assert.deepEqual(
    bodies.map((b) => b.result.content[0].text).sort(),
    Array.from({ length: 50 }, (_, i) => `call ${i + 1}`).sort(),
  );
  const counters = (await view(session.id)).counters;
  assert.equal(counters.posts, 50);
  assert.equal(counters["method:tools/call"], 50);
  assert.equal(counters["tool-calls:echo"], 50);
});

test("50 concurrent POSTs under a status sequence get each position of the sequence exactly once", async () => {
  // POST n gets statusCodes[n-1]: if the count were lost or doubled, a status would repeat or go missing.
  const statusCodes = [...Array(25).fill(503), ...Array(25).fill(429), 200];
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes });
  const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => echo(session.mcpUrl, i + 1)));
  await Promise.all(responses.map((r) => r.arrayBuffer()));
  const tally = responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
  assert.deepEqual(tally, { 429: 25, 503: 25 });
  assert.equal((await view(session.id)).counters.posts, 50);
});
