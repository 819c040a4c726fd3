import { test } from "node:test";
import assert from "node:assert/strict";
import { junitReport } from "../../src/cli/junit.ts";
import { judge, type ScenarioRun } from "../../src/cli/run-result.ts";
import { escapeXml, escapeXmlAttribute } from "../../src/cli/xml.ts";
import { childrenNamed, parseXml } from "./xml-parse.ts";

// The JUnit report's mapping and escaping, on runs built here; run.test.ts produces real ones against a server.

const TRICKY = `a & b < c > d "e" 'f' \u0001\u0007\u001B[31m tab\tline\nend \uFFFE \uD800 ok 😀`;

const POLICY = { ignoreExit: false, allowUnexercised: false, allowUnjudged: false };

/** The JUnit report of one run judged under the default policy (or `policy`). */
function report(run: ScenarioRun, policy = POLICY): string {
  return junitReport([judge(run, policy)]);
}

function runWith(checks: ScenarioRun["checks"], overrides: Partial<ScenarioRun> = {}): ScenarioRun {
  return {
    scenario: "errors.tool_error",
    params: { text: TRICKY },
    variant: {},
    sessionId: "abc",
    mcpUrl: "http://127.0.0.1:1/s/abc/mcp",
    timeoutMs: 60_000,
    durationMs: 1234,
    exercisedBy: "fault",
    child: { exitCode: 0, signal: null, timedOut: false },
    journal: [
      { seq: 1, request: { method: "POST" }, response: { status: 200 }, rpc: { method: "tools/list" } },
      { seq: 2, request: { method: "POST" }, response: { status: 200 }, rpc: { method: "tools/call", toolName: "place_order" }, fault: { kind: "tool_error", rule: "call #1" } },
    ],
    checks,
    ...overrides,
  };
}

test("escapes the five special characters and writes characters XML cannot carry as visible \\u escapes", () => {
  assert.equal(escapeXml(`<a href="x">&'</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  assert.equal(escapeXml("bell\u0007 nul\u0000 esc\u001B del\u007F"), "bell\\u0007 nul\\u0000 esc\\u001B del\u007F");
  assert.equal(escapeXml("\uFFFF lone \uDC00 pair 😀"), "\\uFFFF lone \\uDC00 pair 😀");
  assert.equal(escapeXml("tab\tlf\ncr\r"), "tab\tlf\ncr\r");
  assert.equal(escapeXmlAttribute("tab\tlf\ncr\r"), "tab&#9;lf&#10;cr&#13;");
});

test("a report with every awkward character in messages and params parses, and reads back what was written", () => {
  const xml = report(runWith([{ id: "tool-error-shown", status: "fail", message: TRICKY, evidence: [2, 3] }]));
  const root = parseXml(xml);
  const suite = childrenNamed(root, "testsuite")[0]!;
  const params = childrenNamed(childrenNamed(suite, "properties")[0]!, "property").find((p) => p.attributes.name === "faultline.params")!;
  const visible = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
  assert.equal(params.attributes.value, visible(JSON.stringify({ text: TRICKY })));
  const failure = childrenNamed(childrenNamed(suite, "testcase")[2]!, "failure")[0]!;
  assert.equal(failure.attributes.message, visible(TRICKY), "the attribute keeps tab and newline");
  assert.equal(failure.text, `${visible(TRICKY)}\nEvidence: journal entries 2, 3`);
});

test("the test reader refuses what a conforming XML parser refuses", () => {
  for (const bad of ["<a>&</a>", "<a>a < b</a>", "<a>&nbsp;</a>", "<a>\u0001</a>", "<a x=\"<\"/>", "<a></b>", "<a>", "<a/><b/>", "<a>&#1;</a>"]) {
    assert.throws(() => parseXml(bad), Error, bad);
  }
});

test("maps check statuses: fail to <failure>, warning to a pass with a property and system-out, info and pass to system-out", () => {
  const root = parseXml(
    report(
      runWith([
        { id: "f", status: "fail", message: "failed one", evidence: [1] },
        { id: "w", status: "warning", message: "warned one", evidence: [] },
        { id: "i", status: "info", message: "nothing to judge", evidence: [] },
        { id: "p", status: "pass", message: "fine", evidence: [4] },
      ]),
    ),
  );
  const suite = childrenNamed(root, "testsuite")[0]!;
  assert.deepEqual([root.attributes.tests, root.attributes.failures], ["6", "1"]);
  assert.deepEqual([suite.attributes.tests, suite.attributes.failures, suite.attributes.time], ["6", "1", "1.234"]);
  const cases = Object.fromEntries(childrenNamed(suite, "testcase").map((c) => [c.attributes.name, c]));
  assert.deepEqual(Object.keys(cases), ["client-run", "fault-judged", "f", "w", "i", "p"]);
  assert.equal(childrenNamed(cases.f!, "failure")[0]?.attributes.message, "failed one");
  assert.equal(childrenNamed(cases.w!, "failure").length, 0);
  assert.equal(childrenNamed(childrenNamed(cases.w!, "properties")[0]!, "property")[0]?.attributes.value, "warning");
  assert.equal(childrenNamed(cases.w!, "system-out")[0]?.text, "warning: warned one");
  assert.equal(childrenNamed(cases.i!, "system-out")[0]?.text, "info: nothing to judge");
  assert.equal(childrenNamed(cases.p!, "system-out")[0]?.text, "pass: fine\nEvidence: journal entries 4");
  assert.equal(childrenNamed(cases["client-run"]!, "system-out")[0]?.text, "The command exited with status 0.");
});

test("fails the client-run case of a run that timed out or sent nothing, naming both, and never reads a timed-out command's exit code", () => {
  // A client that exits 0 on SIGTERM: its code after the deadline says nothing.
  const root = parseXml(report(runWith([], { journal: [], child: { exitCode: 0, signal: null, timedOut: true } })));
  const failure = childrenNamed(childrenNamed(childrenNamed(root, "testsuite")[0]!, "testcase")[0]!, "failure")[0]!;
  assert.match(failure.attributes.message ?? "", /^the command timed out after 60 s \(--timeout\) and was stopped; the command sent no request/);
  assert.doesNotMatch(failure.text, /exit/);
});

test("fails the fault-judged case of a scenario whose fault never fired, and skips it under --allow-unexercised", () => {
  const run = runWith([], { journal: [{ seq: 1, request: { method: "POST" }, response: { status: 200 }, rpc: { method: "tools/list" } }] });
  const faultCase = (xml: string) => childrenNamed(childrenNamed(parseXml(xml), "testsuite")[0]!, "testcase").find((c) => c.attributes.name === "fault-judged")!;
  const failed = childrenNamed(faultCase(report(run)), "failure")[0];
  assert.equal(failed?.attributes.type, "not exercised");
  assert.match(failed?.attributes.message ?? "", /^not exercised: the fault never fired: the client sent 1 request \(tools\/list\)/);
  const skipped = childrenNamed(faultCase(report(run, { ...POLICY, allowUnexercised: true })), "skipped")[0];
  assert.match(skipped?.attributes.message ?? "", /^not exercised: /);
});

test("fails the client-run case of a command that exited non-zero, and passes it under --ignore-exit saying so", () => {
  const run = runWith([{ id: "p", status: "pass", message: "fine", evidence: [2] }], { child: { exitCode: 1, signal: null, timedOut: false } });
  const clientCase = (xml: string) => childrenNamed(childrenNamed(parseXml(xml), "testsuite")[0]!, "testcase")[0]!;
  assert.equal(childrenNamed(clientCase(report(run)), "failure")[0]?.attributes.message, "the command exited with status 1");
  const ignored = clientCase(report(run, { ...POLICY, ignoreExit: true }));
  assert.equal(childrenNamed(ignored, "failure").length, 0);
  assert.equal(childrenNamed(ignored, "system-out")[0]?.text, "The command exited with status 1 (ignored: --ignore-exit).");
});
