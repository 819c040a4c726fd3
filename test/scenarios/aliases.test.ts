import { test } from "node:test";
import assert from "node:assert/strict";
import { ALIASES, findScenario, paramsSchema, SCENARIOS } from "../../scenarios/index.ts";
import { proxiedScenario } from "../../src/proxy/config.ts";
import { proxyRefusal } from "../../src/proxy/support.ts";
import { ApiError } from "../../src/api-error.ts";
import { call, counterState, facts, legacy, method, NOW } from "../helpers/decide.ts";
import type { RequestFacts } from "../../src/mcp/scenario.ts";
import { aliasScenario, defineAlias } from "../../src/scenario-kit/alias.ts";
import { z } from "zod";

// The aliases (scenarios/test-kitchen.ts) in process: what each maps Test Kitchen's params to, their decide()
// through the scenario that answers, and proxy mode's refusal.

/** What each alias's default params become: the answering scenario and its params (responseMode passes through). */
const DEFAULT_MAPPINGS: Record<string, { scenario: string; params: Record<string, unknown> }> = {
  "timeout.uncooperative_hang": { scenario: "timeouts.stall_before_headers", params: { methods: ["tools/call"], nth: 1, ms: 60_000, responseMode: "json" } },
  "timeout.cooperative_deadline": { scenario: "timeouts.stall_before_headers", params: { methods: ["tools/call"], ms: 1_000, responseMode: "json" } },
  "timeout.late_response": { scenario: "timeouts.stall_before_headers", params: { methods: ["tools/call"], ms: 5_000, responseMode: "json" } },
  "timeout.init_hang": { scenario: "timeouts.stall_before_headers", params: { methods: ["initialize"], ms: 2_000, responseMode: "json" } },
  "errors.connection_close": { scenario: "streams.cut_before_response", params: { methods: ["tools/call"], nth: 1, responseMode: "json" } },
  "errors.malformed_payload": {
    scenario: "script",
    params: { rules: [{ match: { method: "tools/call", nth: 1 }, fault: { kind: "malformed", variant: "invalid_json" } }], responseMode: "json" },
  },
  "errors.http_status_per_method": { scenario: "errors.status_per_method", params: { statuses: { "tools/call": 401 }, body: "empty", responseMode: "json" } },
  "errors.non_compliant_envelope": {
    scenario: "script",
    params: { rules: [{ match: { nth: 1 }, fault: { kind: "jsonrpc_error", code: -32603, httpStatus: 400 } }], responseMode: "json" },
  },
  "auth.token_lifecycle": { scenario: "errors.http_status_sequence", params: { statusCodes: [401, 200], body: "empty", responseMode: "json" } },
};

test("every alias is listed here with its default mapping, and no alias takes a scenario's id", () => {
  assert.deepEqual(ALIASES.map((a) => a.id).toSorted(), Object.keys(DEFAULT_MAPPINGS).toSorted());
  for (const alias of ALIASES) assert.equal(SCENARIOS.find((s) => s.id === alias.id), undefined, alias.id);
});

for (const [id, expected] of Object.entries(DEFAULT_MAPPINGS)) {
  test(`${id} with {} keeps Test Kitchen's defaults and maps them onto ${expected.scenario}`, () => {
    const alias = findScenario(id);
    assert.ok(alias, id);
    const parsed = paramsSchema(alias).parse({}) as Record<string, unknown>;
    assert.deepEqual(parsed.answeredBy, expected);
  });
}

test("responseMode given to an alias reaches the scenario that answers", () => {
  const parsed = paramsSchema(findScenario("timeout.late_response")!).parse({ responseMode: "sse", delayMs: 7 }) as Record<string, any>;
  assert.deepEqual(parsed.answeredBy.params, { methods: ["tools/call"], ms: 7, responseMode: "sse" });
});

/** The faults decide() picks for each request in turn, with the session's counters. */
function decisions(id: string, params: Record<string, unknown>, requests: Partial<RequestFacts>[]) {
  const scenario = findScenario(id)!;
  const parsed = paramsSchema(scenario).parse(params);
  const count = counterState();
  return requests.map((over) => {
    const request = facts(over);
    const decision = scenario.decide?.({ params: parsed, request, counters: count(request), now: NOW });
    return decision && JSON.parse(JSON.stringify(decision.fault));
  });
}

test("timeout.uncooperative_hang delays only the hangOnInvocation-th tools/call", () => {
  assert.deepEqual(decisions("timeout.uncooperative_hang", { hangOnInvocation: 2, hangDurationMs: 10 }, [call("echo"), method("tools/list"), call("echo"), call("echo")]), [
    undefined, undefined, { kind: "delay", ms: 10 }, undefined,
  ]);
});

test("timeout.init_hang delays every initialize and nothing else", () => {
  const init = legacy({ method: "initialize", toolName: undefined });
  assert.deepEqual(decisions("timeout.init_hang", { initDelayMs: 5 }, [init, call("echo"), init]), [{ kind: "delay", ms: 5 }, undefined, { kind: "delay", ms: 5 }]);
});

test("errors.connection_close with closeOn initialize cuts the onInvocation-th initialize, not tools/call", () => {
  const init = legacy({ method: "initialize", toolName: undefined });
  assert.deepEqual(decisions("errors.connection_close", { closeOn: "initialize", onInvocation: 2 }, [init, call("echo"), init]), [
    undefined, undefined, { kind: "cut_stream", priming: false, retryMs: 0 },
  ]);
});

test("errors.malformed_payload target http_request counts every request, and missing_jsonrpc drops the member", () => {
  assert.deepEqual(decisions("errors.malformed_payload", { kind: "missing_jsonrpc", target: "http_request", onInvocation: 2 }, [method("tools/list"), method("prompts/list"), call("echo")]), [
    undefined, { kind: "envelope", variant: "no_jsonrpc" }, undefined,
  ]);
});

test("errors.http_status_per_method answers only the non-2xx rules", () => {
  assert.deepEqual(decisions("errors.http_status_per_method", { rules: { "tools/list": 503, "tools/call": 204 } }, [method("tools/list"), call("echo")]), [
    { kind: "http_status", status: 503, body: "empty" }, undefined,
  ]);
});

test("auth.token_lifecycle rejects POSTs 1..rejectUntilInvocation with a bare 401, and none with 0", () => {
  const three = [call("echo"), call("echo"), call("echo")];
  const bare = { kind: "http_status", status: 401, body: "empty" };
  assert.deepEqual(decisions("auth.token_lifecycle", { rejectUntilInvocation: 2 }, three), [bare, bare, undefined]);
  assert.deepEqual(decisions("auth.token_lifecycle", { rejectUntilInvocation: 0 }, three), [undefined, undefined, undefined]);
  assert.deepEqual(decisions("auth.token_lifecycle", { rejectUntilInvocation: 0, rejectForever: true }, three), [bare, bare, bare]);
});

test("an alias runs in proxy mode exactly when the scenario that answers it does", () => {
  const upstream = { url: "http://127.0.0.1:9/mcp", forwardAuthorization: false };
  for (const alias of ALIASES) {
    const target = findScenario(alias.answeredBy)!;
    assert.equal(proxyRefusal(findScenario(alias.id)!) === undefined, proxyRefusal(target) === undefined, alias.id);
  }
  // Every alias of today maps onto a fault-only scenario; catalog.pagination serves a list of its own.
  for (const alias of ALIASES) assert.equal(proxiedScenario(upstream, alias.id), upstream, alias.id);
  assert.throws(
    () => proxiedScenario(upstream, "catalog.pagination"),
    (error: unknown) => error instanceof ApiError && error.issues?.[0]?.rule === "unsupported_in_proxy_mode",
  );
  assert.equal(proxiedScenario(upstream, "catalog.facet_unavailable"), upstream);
});

test("an alias of a scenario that serves tools or handlers of its own is refused in proxy mode, naming the alias", () => {
  for (const id of ["elicitation.approval", "catalog.mutation"]) {
    const target = findScenario(id)!;
    const alias = aliasScenario(defineAlias({ id: "other.name", answeredBy: id, summary: "-", params: z.object({}), map: () => ({}) }), target, paramsSchema(target));
    assert.match(proxyRefusal(alias) ?? "", /^scenario 'other\.name' /, id);
  }
});

test("a param known by two names refuses two values that disagree, at Test Kitchen's name, and takes one that agrees", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["errors.jsonrpc_error", { nth: 2, onInvocation: 3 }, "onInvocation"],
    ["errors.tool_error", { nth: 1, onInvocation: 2 }, "onInvocation"],
    ["errors.tool_error", { text: "a", errorMessage: "b" }, "errorMessage"],
  ];
  for (const [id, params, field] of cases) {
    const result = paramsSchema(findScenario(id)!).safeParse(params);
    assert.equal(result.success, false, `${id} ${JSON.stringify(params)}`);
    assert.deepEqual(result.error?.issues.map((i) => i.path.join(".")), [field]);
  }
  assert.equal((paramsSchema(findScenario("errors.tool_error")!).parse({ text: "a", errorMessage: "a", nth: 2, onInvocation: 2 }) as Record<string, unknown>).text, "a");
});
