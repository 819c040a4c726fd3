import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { answersFromRecording, paramsSchema, RECORDING_SCENARIO_ID, SCENARIOS } from "../../scenarios/index.ts";
import type { Counters, RequestFacts, Scenario } from "../../src/mcp/scenario.ts";
import { OAUTH_PARAMS, oauthSettings } from "../../src/oauth/settings.ts";
import { proxyRefusal } from "../../src/proxy/support.ts";
import { counterState, facts, legacy, NOW, type ScenarioCases } from "../helpers/decide.ts";

// GATE: the traits a scenario declares (src/mcp/scenario.ts: needs, answersFromRecording) agree with what it does, so
// that the session, the OAuth server, the proxy and the recordings can read them instead of the id.

const TABLES = new URL("decide/", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []));
}

const tables: ScenarioCases[] = await Promise.all(files(TABLES).map(async (file) => ((await import(file)) as { default: ScenarioCases }).default));

/** The requests every scenario is also tried on: both eras, a few methods, with and without a bearer token. */
const PROBES: Partial<RequestFacts>[] = [
  {},
  { method: "tools/list", toolName: undefined },
  legacy(),
  legacy({ method: "initialize", toolName: undefined }),
  legacy({ kind: "notification", method: "notifications/initialized", toolName: undefined }),
  { headers: { authorization: "Bearer t0ken" }, bearer: { key: "k1", valid: true, scopes: ["faultline:read"] } },
  legacy({ headers: { authorization: "Bearer t0ken" }, bearer: { key: "k1", valid: false, scopes: [] } }),
];

/** Whether decide() read `request.bearer` or `counters.mcpSession` on any request of its table or of the probes. */
function reads(scenario: Scenario): { bearer: boolean; mcpSession: boolean } {
  const seen = { bearer: false, mcpSession: false };
  const watch = <T extends object>(target: T, key: "bearer" | "mcpSession"): T =>
    new Proxy(target, { get: (t, prop, receiver) => ((prop === key && (seen[key] = true)), Reflect.get(t, prop, receiver)) });
  const runs: { params: Record<string, unknown>; steps: { request?: Partial<RequestFacts>; counters?: Partial<Counters> }[] }[] = [
    ...tables.filter((t) => t.scenario === scenario.id).flatMap((t) => t.cases.map((c) => ({ params: c.params ?? {}, steps: c.steps }))),
    ...[{}, scenario.example].map((params) => ({ params, steps: PROBES.map((request) => ({ request })) })),
  ];
  for (const run of runs) {
    const params = paramsSchema(scenario).parse(run.params);
    const count = counterState();
    for (const step of run.steps) {
      const request = facts(step.request);
      scenario.decide?.({ params, request: watch(request, "bearer"), counters: watch(count(request, step.counters), "mcpSession"), now: NOW });
    }
  }
  return seen;
}

const paramKeys = (scenario: Scenario) => Object.keys(paramsSchema(scenario).shape);

test("the traits gate sees the scenarios that read the bearer token and Faultline's own MCP sessions", () => {
  assert.deepEqual(reads(SCENARIOS.find((s) => s.id === "auth.token_expiry")!), { bearer: true, mcpSession: false });
  assert.deepEqual(reads(SCENARIOS.find((s) => s.id === "session.expire_after")!), { bearer: false, mcpSession: true });
  assert.deepEqual(reads(SCENARIOS.find((s) => s.id === "baseline")!), { bearer: false, mcpSession: false });
});

test("GATE: a scenario needs the OAuth server exactly when its decide() reads the bearer token and its params carry the server's settings", () => {
  const oauthKeys = Object.keys(OAUTH_PARAMS);
  const wrong: string[] = [];
  for (const scenario of SCENARIOS) {
    const declared = scenario.needs?.oauthServer === true;
    if (reads(scenario).bearer !== declared) wrong.push(`${scenario.id}: needs.oauthServer ${declared}, but decide() ${declared ? "never reads" : "reads"} request.bearer`);
    const settings = oauthKeys.filter((key) => paramKeys(scenario).includes(key));
    if (settings.length !== (declared ? oauthKeys.length : 0)) wrong.push(`${scenario.id}: needs.oauthServer ${declared}, params carry ${settings.join(", ") || "none"} of OAUTH_PARAMS`);
  }
  assert.deepEqual(wrong, []);
});

test("GATE: a scenario needs MCP sessions of its own exactly when its decide() reads counters.mcpSession", () => {
  const wrong = SCENARIOS.filter((s) => reads(s).mcpSession !== (s.needs?.ownMcpSessions === true)).map((s) => `${s.id}: needs.ownMcpSessions ${s.needs?.ownMcpSessions === true}`);
  assert.deepEqual(wrong, []);
});

test("GATE: exactly one scenario answers from a recording; it decides nothing and serves nothing itself, and its params name the recording", () => {
  const replaying = SCENARIOS.filter((s) => s.answersFromRecording);
  assert.deepEqual(replaying.map((s) => s.id), [RECORDING_SCENARIO_ID]);
  const [scenario] = replaying;
  assert.equal(scenario?.decide ?? scenario?.tools ?? scenario?.handlers, undefined);
  for (const key of ["from", "har"]) assert.ok(paramKeys(scenario!).includes(key), `params.${key}`);
});

test("the session runs an authorization server for exactly the scenarios that declare the need", () => {
  for (const scenario of SCENARIOS) {
    const settings = oauthSettings(scenario, paramsSchema(scenario).parse({}));
    assert.equal(settings !== undefined, scenario.needs?.oauthServer === true, scenario.id);
  }
  // An undeclared scenario gets none even when its params ask for the builtin server.
  assert.equal(oauthSettings({}, { authorizationServer: "builtin" }), undefined);
});

test("proxy mode refuses a scenario that needs MCP sessions of its own, read from the declaration", () => {
  const expireAfter = SCENARIOS.find((s) => s.id === "session.expire_after")!;
  assert.match(proxyRefusal(expireAfter) ?? "", /counts requests per MCP session/);
  const { needs: _, ...undeclared } = expireAfter;
  assert.equal(proxyRefusal(undeclared), undefined);
});

test("a session replays a recording for exactly the scenario that declares it answers from one", () => {
  for (const scenario of SCENARIOS) assert.equal(answersFromRecording(scenario.id), scenario.answersFromRecording === true, scenario.id);
  assert.equal(answersFromRecording("no.such_scenario"), false);
});
