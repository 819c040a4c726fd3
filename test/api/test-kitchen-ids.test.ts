import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";

// MCP Test Kitchen's 20 ids (../shared/docs/test-kitchen-ids.md, its ScenarioIds.cs at cf2f689), each created with
// its documented default params, then one request per alias over loopback showing what Test Kitchen documents.
const server = useServer();

type Json = Record<string, any>;

/** Each id, its documented defaults, and the Faultline scenario that answers it (undefined: a scenario of that id). */
const TEST_KITCHEN: Array<{ id: string; params: Json; answeredBy?: string }> = [
  { id: "baseline", params: { slowReportDelayMs: 0 } },
  { id: "errors.http_status_sequence", params: { statusCodes: [503, 200] } },
  { id: "errors.jsonrpc_error", params: { code: -32602, message: "Invalid params", onInvocation: 1 } },
  { id: "errors.tool_error", params: { errorMessage: "Tool-side failure", onInvocation: 1 } },
  {
    id: "elicitation.approval",
    params: { promptMessage: "Approve this test action?", reasonFieldTitle: "Reason (recorded for audit)", reasonMaxLength: 200, requireReason: true, elicitationTimeoutMs: 300000 },
  },
  { id: "compat.sdk_v2", params: { defaultCloseReason: "completed", promptMessage: "Close ticket '{ticketId}'? …" } },
  { id: "timeout.uncooperative_hang", params: { hangOnInvocation: 1, hangDurationMs: 60000 }, answeredBy: "timeouts.stall_before_headers" },
  { id: "timeout.cooperative_deadline", params: { delayMs: 1000, honorCancellation: true }, answeredBy: "timeouts.stall_before_headers" },
  { id: "timeout.late_response", params: { delayMs: 5000 }, answeredBy: "timeouts.stall_before_headers" },
  { id: "timeout.init_hang", params: { initDelayMs: 2000, honorCancellation: true }, answeredBy: "timeouts.stall_before_headers" },
  { id: "errors.connection_close", params: { closeOn: "tool_call", onInvocation: 1 }, answeredBy: "streams.cut_before_response" },
  { id: "errors.malformed_payload", params: { kind: "invalid_json", target: "tool_call", onInvocation: 1 }, answeredBy: "script" },
  { id: "errors.http_status_per_method", params: { rules: { "tools/call": 401, initialize: 200 } }, answeredBy: "errors.status_per_method" },
  {
    id: "errors.non_compliant_envelope",
    params: { httpStatus: 400, resultPayload: '{"content":[{"type":"text","text":"ok"}],"isError":false}', onInvocation: 1 },
    answeredBy: "script",
  },
  { id: "auth.token_lifecycle", params: { rejectUntilInvocation: 1, rejectForever: false }, answeredBy: "errors.http_status_sequence" },
  { id: "catalog.mutation", params: { mutations: [] } },
  { id: "catalog.pagination", params: { totalItems: 10, pageSize: 3, facet: "resources", fault: "none", faultAtPage: 2 } },
  { id: "catalog.facet_unavailable", params: { unavailableFacets: ["resources"] } },
  { id: "elicitation.decline", params: { expectedOutcome: "decline", promptMessage: "Confirm this test action?", elicitationTimeoutMs: 5000 } },
  { id: "elicitation.url_mode", params: { url: "https://example.com/approve", promptMessage: "Approve in your browser", elicitationTimeoutMs: 300000 } },
];

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function json(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as Json;
}

const ECHO = { name: "echo", arguments: { text: "hi" } };
const call = (mcpUrl: string, id: number) => postModern(mcpUrl, id, "tools/call", ECHO);

/** The JSON-RPC messages in an SSE body. */
function sseMessages(text: string): Json[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
    .map((line) => JSON.parse(line.slice(5)) as Json);
}

test("the table holds Test Kitchen's 20 ids, each once", () => {
  assert.equal(new Set(TEST_KITCHEN.map((row) => row.id)).size, 20);
});

for (const row of TEST_KITCHEN) {
  test(`${row.id} with Test Kitchen's default params gives 201, and the session shows the id asked for and what answers it`, async () => {
    const created = await json(await post("/sessions", { scenario: row.id, params: row.params }), 201);
    assert.equal(created.scenario, row.id);
    assert.equal(created.params.answeredBy?.scenario, row.answeredBy);
    const shown = await json(await fetch(`${server.url}/api/sessions/${created.id}`), 200);
    assert.equal(shown.scenario, row.id);
    assert.deepEqual(shown.params, created.params);
  });
}

test("errors.jsonrpc_error with nth and onInvocation that disagree gets a 400 naming params.onInvocation", async () => {
  const body = await json(await post("/sessions", { scenario: "errors.jsonrpc_error", params: { nth: 2, onInvocation: 3 } }), 400);
  assert.equal(body.error.code, "invalid_request");
  assert.deepEqual(body.error.issues.map((i: Json) => [i.path, i.rule]), [["params.onInvocation", "custom"]]);
  assert.match(body.error.issues[0].message, /conflicts with nth/);
});

test("errors.tool_error with text and errorMessage that disagree gets a 400 naming params.errorMessage", async () => {
  const body = await json(await post("/sessions", { scenario: "errors.tool_error", params: { text: "a", errorMessage: "b" } }), 400);
  assert.deepEqual(body.error.issues.map((i: Json) => [i.path, i.rule]), [["params.errorMessage", "custom"]]);
});

test("errors.tool_error still takes Faultline's own names and shows them", async () => {
  const created = await json(await post("/sessions", { scenario: "errors.tool_error", params: { nth: 2, text: "no" } }), 201);
  assert.deepEqual(created.params, { nth: 2, text: "no", tools: ["run_configured_test_scenario"], responseMode: "json" });
});

test("an alias refuses a field Test Kitchen does not have, and a value outside its rule, naming the field", async () => {
  const unknown = await json(await post("/sessions", { scenario: "timeout.init_hang", params: { ms: 5 } }), 400);
  assert.deepEqual(unknown.error.issues.map((i: Json) => [i.path, i.rule]), [["params.ms", "unrecognized_keys"]]);
  const bad = await json(await post("/sessions", { scenario: "errors.connection_close", params: { closeOn: "reset" } }), 400);
  assert.deepEqual(bad.error.issues.map((i: Json) => [i.path, i.rule]), [["params.closeOn", "invalid_value"]]);
  const stored = await json(await post("/sessions", { scenario: "auth.token_lifecycle", params: { answeredBy: { scenario: "baseline", params: {} } } }), 400);
  assert.deepEqual(stored.error.issues.map((i: Json) => [i.path, i.rule]), [["params.answeredBy", "unrecognized_keys"]]);
});

test("errors.malformed_payload refuses kind duplicate_response with a 400 saying why", async () => {
  const body = await json(await post("/sessions", { scenario: "errors.malformed_payload", params: { kind: "duplicate_response" } }), 400);
  assert.deepEqual(body.error.issues.map((i: Json) => i.path), ["params.kind"]);
  assert.match(body.error.issues[0].message, /one answer per request/);
});

test("timeout.uncooperative_hang holds only the hangOnInvocation-th tools/call back, for hangDurationMs, then answers it", async () => {
  const { id, mcpUrl } = await createSession(server, "timeout.uncooperative_hang", { hangOnInvocation: 2, hangDurationMs: 40 });
  for (const n of [1, 2, 3]) assert.equal((await json(await call(mcpUrl, n), 200)).result.content[0].text, "hi");
  const entries = await journalOf(server.url, id, 3);
  assert.deepEqual(entries.map((e) => e.fault && [e.fault.kind, e.fault.detail.ms]), [undefined, ["delay", 40], undefined]);
});

for (const [alias, params, ms] of [["timeout.cooperative_deadline", { delayMs: 30 }, 30], ["timeout.late_response", { delayMs: 45 }, 45]] as const) {
  test(`${alias} delays every tools/call by delayMs and then answers it`, async () => {
    const { id, mcpUrl } = await createSession(server, alias, params);
    for (const n of [1, 2]) assert.equal((await json(await call(mcpUrl, n), 200)).result.content[0].text, "hi");
    const entries = await journalOf(server.url, id, 2);
    assert.deepEqual(entries.map((e) => e.fault && [e.fault.kind, e.fault.detail.ms]), [["delay", ms], ["delay", ms]]);
  });
}

test("timeout.init_hang delays the legacy initialize by initDelayMs, and the handshake then succeeds", async () => {
  const { id, mcpUrl } = await createSession(server, "timeout.init_hang", { initDelayMs: 25 });
  const { post: send } = await legacySession(mcpUrl);
  assert.equal((await json(await send({ id: 1, method: "tools/call", params: ECHO }), 200)).result.content[0].text, "hi");
  const entries = await journalOf(server.url, id, 3);
  const init = entries.find((e) => e.rpc.method === "initialize");
  assert.deepEqual(init?.fault && [init.fault.kind, init.fault.detail.ms], ["delay", 25]);
  assert.deepEqual(entries.filter((e) => e.rpc.method !== "initialize").map((e) => e.fault), [undefined, undefined]);
});

test("errors.connection_close ends the onInvocation-th tools/call's stream with no response, and answers the next", async () => {
  const { mcpUrl } = await createSession(server, "errors.connection_close", {});
  const cut = await call(mcpUrl, 1);
  assert.equal(cut.status, 200);
  assert.deepEqual(sseMessages(await cut.text()).filter((m) => "result" in m || "error" in m), []);
  assert.equal((await json(await call(mcpUrl, 2), 200)).result.content[0].text, "hi");
});

test("errors.malformed_payload answers the first tools/call with HTTP 200 and a body that is not JSON", async () => {
  const { mcpUrl } = await createSession(server, "errors.malformed_payload", {});
  const res = await call(mcpUrl, 1);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const text = await res.text();
  assert.throws(() => JSON.parse(text), SyntaxError, text);
});

test("errors.malformed_payload kind wrong_id answers with another id", async () => {
  const { mcpUrl } = await createSession(server, "errors.malformed_payload", { kind: "wrong_id" });
  const body = await json(await call(mcpUrl, 7), 200);
  assert.notEqual(body.id, 7);
  assert.equal(body.jsonrpc, "2.0");
});

test("errors.http_status_per_method answers tools/call 401 with an empty body and lets initialize (200) through", async () => {
  const { mcpUrl } = await createSession(server, "errors.http_status_per_method", {});
  const { post: send } = await legacySession(mcpUrl);
  const res = await send({ id: 1, method: "tools/call", params: ECHO });
  assert.equal(res.status, 401);
  assert.equal(await res.text(), "");
});

test("errors.non_compliant_envelope answers the first POST with HTTP 400 carrying a JSON-RPC envelope with the request's id", async () => {
  const { mcpUrl } = await createSession(server, "errors.non_compliant_envelope", {});
  const body = await json(await call(mcpUrl, 41), 400);
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(body.id, 41);
  assert.equal((await json(await call(mcpUrl, 42), 200)).result.content[0].text, "hi");
});

test("auth.token_lifecycle gives the first POST a bare 401 with no WWW-Authenticate, then answers", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_lifecycle", {});
  const first = await call(mcpUrl, 1);
  assert.equal(first.status, 401);
  assert.equal(first.headers.get("www-authenticate"), null);
  await first.arrayBuffer();
  assert.equal((await json(await call(mcpUrl, 2), 200)).result.content[0].text, "hi");
});

test("auth.token_lifecycle with rejectForever answers every POST 401", async () => {
  const { mcpUrl } = await createSession(server, "auth.token_lifecycle", { rejectForever: true, rejectUntilInvocation: 0 });
  for (const n of [1, 2, 3]) {
    const res = await call(mcpUrl, n);
    assert.equal(res.status, 401);
    await res.arrayBuffer();
  }
});

test("catalog.pagination pages resources/list by the count of calls: 3, 3, 3, 1 items, then an empty page", async () => {
  const { mcpUrl } = await createSession(server, "catalog.pagination", {});
  const pages: Array<[string[], unknown]> = [];
  for (const n of [1, 2, 3, 4, 5]) {
    const { result } = await json(await postModern(mcpUrl, n, "resources/list", n === 1 ? {} : { cursor: "ignored" }), 200);
    pages.push([result.resources.map((r: Json) => r.uri), result.nextCursor]);
  }
  assert.deepEqual(pages, [
    [["test://resource/0", "test://resource/1", "test://resource/2"], "page-1"],
    [["test://resource/3", "test://resource/4", "test://resource/5"], "page-2"],
    [["test://resource/6", "test://resource/7", "test://resource/8"], "page-3"],
    [["test://resource/9"], undefined],
    [[], undefined],
  ]);
});

test("catalog.pagination fault error_after_page_n answers -32603 from page faultAtPage on", async () => {
  const { mcpUrl } = await createSession(server, "catalog.pagination", { facet: "prompts", fault: "error_after_page_n", faultAtPage: 2, pageSize: 2 });
  const first = await json(await postModern(mcpUrl, 1, "prompts/list"), 200);
  assert.deepEqual(first.result.prompts.map((p: Json) => p.name), ["prompt_0", "prompt_1"]);
  const second = await json(await postModern(mcpUrl, 2, "prompts/list"), 200);
  assert.deepEqual([second.error.code, second.error.message], [-32603, "Internal error after page"]);
});

for (const era of ["modern", "legacy"] as const) {
  test(`catalog.facet_unavailable answers resources/list with -32601 at HTTP 200 and prompts/list normally (${era})`, async () => {
    const { mcpUrl } = await createSession(server, "catalog.facet_unavailable", {});
    const send =
      era === "modern"
        ? (id: number, method: string) => postModern(mcpUrl, id, method)
        : await legacySession(mcpUrl).then(({ post: p }) => (id: number, method: string) => p({ id, method, params: {} }));
    const resources = await json(await send(1, "resources/list"), 200);
    assert.deepEqual([resources.id, resources.error.code, resources.error.message], [1, -32601, "Method not found"]);
    const prompts = await json(await send(2, "prompts/list"), 200);
    assert.deepEqual(prompts.result.prompts, []);
  });
}
