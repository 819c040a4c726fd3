import { test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/check.ts";
import type { JournalLine } from "../../src/cli/api.ts";
import { judge, type ScenarioRun } from "../../src/cli/run-result.ts";

// judge() on runs built here: the rules behind each result. run.test.ts runs real clients against a server.

const POLICY = { ignoreExit: false, allowUnexercised: false, allowUnjudged: false };

const line = (seq: number, method: string, extra: Partial<JournalLine> = {}): JournalLine => ({
  seq,
  request: { method: "POST" },
  response: { status: 200 },
  rpc: { method, ...(method === "tools/call" ? { toolName: "place_order" } : {}) },
  ...extra,
});
const FAULTED = line(2, "tools/call", { fault: { kind: "tool_error", rule: "call #1 of place_order is the nth (1)" } });

function run(overrides: Partial<ScenarioRun> = {}): ScenarioRun {
  return {
    scenario: "errors.tool_error",
    params: {},
    variant: {},
    sessionId: "abc",
    mcpUrl: "http://127.0.0.1:1/s/abc/mcp",
    timeoutMs: 10_000,
    durationMs: 1500,
    exercisedBy: "fault",
    child: { exitCode: 0, signal: null, timedOut: false },
    journal: [line(1, "tools/list"), FAULTED],
    checks: [{ id: "non-idempotent-not-replayed", status: "pass", message: "place_order was not resent.", evidence: [2] }],
    ...overrides,
  };
}

test("a scenario whose fault fired and a check passed, run by a command that exited 0, passes", () => {
  const result = judge(run(), POLICY);
  assert.deepEqual([result.result, result.failsRun, result.faultEntries], ["pass", false, [2]]);
});

test("a command's non-zero exit status fails the scenario, unless --ignore-exit", () => {
  const crashed = run({ child: { exitCode: 1, signal: null, timedOut: false } });
  const failed = judge(crashed, POLICY);
  assert.deepEqual([failed.result, failed.judgement, failed.failsRun], ["fail", "pass", true]);
  assert.equal(failed.reasons[0], "the command exited with status 1");
  const ignored = judge(crashed, { ...POLICY, ignoreExit: true });
  assert.deepEqual([ignored.result, ignored.failsRun], ["pass", false]);
  assert.equal(ignored.reasons[0], "the command exited with status 1 (ignored: --ignore-exit)");
});

test("a command ended by a signal fails the scenario like a non-zero exit status", () => {
  const result = judge(run({ child: { exitCode: null, signal: "SIGSEGV", timedOut: false } }), POLICY);
  assert.deepEqual([result.result, result.reasons[0]], ["fail", "the command was ended by SIGSEGV"]);
});

test("a command killed at --timeout fails even with --ignore-exit, said as timed out whatever code it exited with", () => {
  const result = judge(run({ child: { exitCode: 0, signal: null, timedOut: true } }), { ...POLICY, ignoreExit: true });
  assert.deepEqual([result.result, result.reasons[0]], ["fail", "the command timed out after 10 s (--timeout) and was stopped"]);
});

test("a fault scenario whose fault never fired is not exercised, failing the run unless --allow-unexercised, whatever passed", () => {
  const never = run({ journal: [line(1, "tools/list"), line(2, "tools/call")] });
  const result = judge(never, POLICY);
  assert.deepEqual([result.result, result.failsRun], ["not exercised", true]);
  assert.equal(result.why, "the fault never fired: the client sent 2 requests (tools/list, tools/call place_order), and the scenario faulted none of them");
  assert.deepEqual([judge(never, { ...POLICY, allowUnexercised: true }).result, judge(never, { ...POLICY, allowUnexercised: true }).failsRun], ["not exercised", false]);
});

test("a fault that fired with no check result, or only info ones, is not judged, failing the run unless --allow-unjudged", () => {
  for (const checks of [[], [{ id: "http-retry-bounded", status: "info" as const, message: "No retry observed.", evidence: [2] }]]) {
    const result = judge(run({ checks, journal: [line(1, "tools/list"), FAULTED, line(3, "tools/list")] }), POLICY);
    assert.deepEqual([result.result, result.failsRun], ["not judged", true], JSON.stringify(checks));
    assert.match(result.why, /^no check judged what the client did: the fault fired 1 time \(entry 2; first tools\/call place_order got tool_error: call #1 of place_order is the nth \(1\)\), and after it the client sent tools\/list/);
    assert.equal(judge(run({ checks, journal: [FAULTED] }), { ...POLICY, allowUnjudged: true }).failsRun, false);
  }
});

test("a failed check fails the scenario, even when its fault never fired", () => {
  const result = judge(run({ journal: [line(1, "tools/list")], checks: [{ id: "x", status: "fail", message: "bad", evidence: [1] }] }), POLICY);
  assert.deepEqual([result.result, result.why], ["fail", "1 check failed: x"]);
});

test("a control scenario in which nothing was faulted passes on the command's own success", () => {
  const result = judge(run({ scenario: "baseline", exercisedBy: "control", checks: [], journal: [line(1, "tools/list")] }), POLICY);
  assert.deepEqual([result.result, result.failsRun], ["pass", false]);
});

test("a control scenario in which nothing was faulted and whose checks passed passes, naming them (it was \"not exercised\" before)", () => {
  const checks = [{ id: "task-resumed-after-restart", status: "pass" as const, message: "resumed", evidence: [2] }];
  const result = judge(run({ scenario: "conformance", exercisedBy: "control", checks, journal: [line(1, "tools/list")] }), POLICY);
  assert.deepEqual([result.result, result.failsRun, result.why], ["pass", false, "a control scenario, nothing was faulted; 1 check passed: task-resumed-after-restart"]);
});

test("an answers scenario, whose trouble the journal does not mark, is not judged without a check result", () => {
  const result = judge(run({ scenario: "pagination.bad_cursor", exercisedBy: "answers", checks: [], journal: [line(1, "tools/list")] }), POLICY);
  assert.equal(result.result, "not judged");
});

test("a command that sent no request fails, whatever the policy", () => {
  const result = judge(run({ journal: [], checks: [] }), { ignoreExit: true, allowUnexercised: true, allowUnjudged: true });
  assert.equal(result.result, "fail");
  assert.match(result.reasons[0] ?? "", /^the command sent no request to the session/);
});

test("a scenario whose trouble lies beyond its journalled fault is not exercised until a check it is reached by appears", () => {
  const wayIn: Check = { id: "auth-bounded-attempts", status: "pass", message: "One 401, then a token.", evidence: [2] };
  const unreached = judge(run({ reachedBy: ["auth-server-retry-bounded"], checks: [wayIn] }), POLICY);
  assert.deepEqual([unreached.result, unreached.failsRun], ["not exercised", true]);
  assert.match(unreached.why, /auth-server-retry-bounded, which shows the scenario's own trouble reached the client, is absent/);
  const reached = judge(run({ reachedBy: ["auth-server-retry-bounded"], checks: [wayIn, { id: "auth-server-retry-bounded", status: "pass", message: "Two 503s, then a token.", evidence: [] }] }), POLICY);
  assert.equal(reached.result, "pass", reached.why);
  const failed = judge(run({ reachedBy: ["auth-server-retry-bounded"], checks: [{ ...wayIn, status: "fail" }] }), POLICY);
  assert.equal(failed.result, "fail", "a failed check stands whether or not the trouble was reached");
});
