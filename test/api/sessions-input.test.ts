import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "../helpers/app.ts";
import { closest } from "../../src/base/suggest.ts";
import { SCENARIOS } from "../../scenarios/index.ts";

// What the sessions API refuses before it reaches a Durable Object, answered by the app in process
// (test/helpers/app.ts). Its env throws on any Durable Object access, so every 4xx here also proves that nothing
// was created or changed. What needs a session is in sessions.test.ts.

type Json = Record<string, any>;

function send(path: string, body: unknown, method = "POST"): Promise<Response> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return request(`/api${path}`, { method, headers: { "content-type": "application/json" }, body: text });
}

async function refused(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return (JSON.parse(text) as Json).error as Json;
}

const rules = (error: Json) => error.issues.map((i: Json) => [i.path, i.rule]);

for (const bad of ["ab", "Upper-Case", "under_score", "a".repeat(65), "spa ce", "dot.ted"]) {
  test(`a slug id ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 8)}... (${bad.length} chars)` : bad)} is refused with 400 naming id`, async () => {
    const error = await refused(await send("/sessions", { scenario: "baseline", id: bad }), 400);
    assert.equal(error.code, "invalid_request");
    assert.equal(error.issues[0].path, "id");
    assert.match(error.message, /^id: /);
    assert.match(error.message, /\[a-z0-9-\]\{3,64\}/);
  });
}

test("an unknown scenario gives 400 naming the scenario field, the rule, and the closest id", async () => {
  const error = await refused(await send("/sessions", { scenario: "errors.http_status_sequense" }), 400);
  assert.equal(error.code, "invalid_request");
  assert.deepEqual(rules(error), [["scenario", "unknown_scenario"]]);
  assert.match(error.message, /^scenario: Unknown scenario 'errors\.http_status_sequense'; did you mean 'errors\.http_status_sequence'\?/);
  assert.doesNotMatch(error.message, /baseline/, "the other ids are not listed");
});

test("a scenario named without its area is matched by name: http_status_sequence suggests errors.http_status_sequence", async () => {
  const error = await refused(await send("/sessions", { scenario: "http_status_sequence" }), 400);
  assert.match(error.issues[0].message, /did you mean 'errors\.http_status_sequence'\?/);
});

test("an unknown scenario far from every id points to GET /api/scenarios instead of guessing", async () => {
  const error = await refused(await send("/sessions", { scenario: "no.such_thing_at_all" }), 400);
  assert.equal(error.issues[0].message, `Unknown scenario 'no.such_thing_at_all'; GET /api/scenarios lists the ${SCENARIOS.length} scenarios`);
});

test("a PUT to an unknown scenario gets the same suggestion before any session is looked up", async () => {
  const error = await refused(await send("/sessions/anything/scenario", { scenario: "baseline2" }, "PUT"), 400);
  assert.match(error.message, /did you mean 'baseline'\?/);
});

test("closest() ranks the nearest ids first, keeps at most three, and gives none for a word past 64 characters", () => {
  const ids = ["errors.tool_error", "errors.jsonrpc_error", "baseline", "script"];
  assert.deepEqual(closest("errors.tool_eror", ids), ["errors.tool_error"]);
  assert.deepEqual(closest("scrip", ids), ["script"]);
  assert.deepEqual(closest("x".repeat(65), ["x".repeat(65)]), []);
  assert.deepEqual(closest("errors.x", ["errors.d", "errors.c", "errors.b", "errors.a"]), ["errors.a", "errors.b", "errors.c"]);
});

test("params sent at the top level get 400 naming each one, with a hint to nest them under params", async () => {
  const error = await refused(await send("/sessions", { scenario: "errors.http_status_sequence", statusCodes: [503], retryAfter: 2 }), 400);
  assert.deepEqual(rules(error), [
    ["statusCodes", "unrecognized_keys"],
    ["retryAfter", "unrecognized_keys"],
  ]);
  assert.match(error.issues[0].message, /scenario params go under "params", as in \{"scenario":"errors\.http_status_sequence","params":\{"statusCodes":\[503\]\}\}/);
  assert.match(error.message, /^statusCodes: /);
});

test("an unknown top-level field that is no scenario's param gets no nesting hint", async () => {
  const error = await refused(await send("/sessions", { scenario: "baseline", scenery: "x" }), 400);
  assert.deepEqual(rules(error), [["scenery", "unrecognized_keys"]]);
  assert.doesNotMatch(error.issues[0].message, /params/);
});

test("a PUT with a param at the top level gets the nesting hint too", async () => {
  const error = await refused(await send("/sessions/anything/scenario", { scenario: "errors.tool_error", nth: 2 }, "PUT"), 400);
  assert.deepEqual(rules(error), [["nth", "unrecognized_keys"]]);
  assert.match(error.issues[0].message, /"params":\{"nth":2\}/);
});

test("a param that breaks its rule gives 400 naming the param's path and the rule", async () => {
  const error = await refused(await send("/sessions", { scenario: "errors.tool_error", params: { nth: 0 } }), 400);
  assert.equal(error.code, "invalid_request");
  assert.deepEqual(rules(error), [["params.nth", "too_small"]]);
  assert.match(error.message, /^params\.nth: .*\(too_small\)$/);
});

test("a param of the wrong type in a nested array gives 400 naming the element's path in the dotted form", async () => {
  const error = await refused(await send("/sessions", { scenario: "errors.http_status_sequence", params: { statusCodes: [503, "200"] } }), 400);
  assert.deepEqual(rules(error), [["params.statusCodes.1", "invalid_type"]]);
});

test("an unknown param gives 400 naming the param's own path with the unrecognized_keys rule", async () => {
  const error = await refused(await send("/sessions", { scenario: "baseline", params: { delay: 5 } }), 400);
  assert.deepEqual(rules(error), [["params.delay", "unrecognized_keys"]]);
});

test("a create request without a scenario gives 400 naming scenario", async () => {
  const error = await refused(await send("/sessions", { params: {} }), 400);
  assert.deepEqual(rules(error), [["scenario", "invalid_type"]]);
});

test("a body that is not valid JSON gives 400 invalid_json with the line and column", async () => {
  const error = await refused(await send("/sessions", '{\n  "scenario": "baseline"\n  "id": "x"\n}'), 400);
  assert.equal(error.code, "invalid_json");
  assert.deepEqual(rules(error), [["(root)", "invalid_json"]]);
  assert.match(error.message, /line 3 column 3/);
});

test("a PUT body that is not valid JSON gives 400 invalid_json", async () => {
  const error = await refused(await send("/sessions/anything/scenario", "scenario=baseline", "PUT"), 400);
  assert.equal(error.code, "invalid_json");
  assert.deepEqual(rules(error), [["(root)", "invalid_json"]]);
});

test("an empty body gives 400 invalid_json saying it is empty", async () => {
  const error = await refused(await send("/sessions", ""), 400);
  assert.equal(error.code, "invalid_json");
  assert.match(error.message, /empty/);
});

test("a body over 64 KiB gives 413 payload_too_large, the code /classify uses", async () => {
  const body = JSON.stringify({ scenario: "baseline", params: { delayMs: 1 }, pad: "x".repeat(64 * 1024) });
  const error = await refused(await send("/sessions", body), 413);
  assert.equal(error.code, "payload_too_large");
  assert.equal(error.message, "The request body is larger than 65536 bytes (64 KiB)");
});

test("a create request sent as a plain-text form post gives 415 before any session is touched", async () => {
  const res = await request("/api/sessions", { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ scenario: "baseline", id: "csrf-probe" }) });
  const error = await refused(res, 415);
  assert.equal(error.code, "unsupported_media_type");
});
