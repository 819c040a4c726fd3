import type { Check } from "../checks/check.ts";
import { CLIENT_RUN_ID, clientProblems, formatSeconds, type ScenarioRun } from "./run-result.ts";
import { element, textElement } from "./xml.ts";

/**
 * The runs as a JUnit XML report: a test suite per scenario and a test case per check, plus one case for the client
 * run itself (failed when the command timed out or never reached its session). A failed check is a <failure> with
 * its message and evidence; a warning passes with its message in <system-out> and a faultline.status property;
 * an info check passes with its message in <system-out>.
 */
export function junitReport(runs: readonly ScenarioRun[]): string {
  const suites = runs.map(suite);
  const tests = runs.reduce((sum, run) => sum + run.checks.length + 1, 0);
  const failures = runs.reduce((sum, run) => sum + failuresOf(run), 0);
  const time = formatSeconds(runs.reduce((sum, run) => sum + run.durationMs, 0));
  const root = element("testsuites", { name: "faultline run", tests, failures, errors: 0, time }, suites);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}

function failuresOf(run: ScenarioRun): number {
  return run.checks.filter((check) => check.status === "fail").length + (clientProblems(run).length > 0 ? 1 : 0);
}

function suite(run: ScenarioRun): string {
  const properties = element("properties", {}, [
    element("property", { name: "faultline.session", value: run.sessionId }),
    element("property", { name: "faultline.params", value: JSON.stringify(run.params) }),
    element("property", { name: "faultline.mcpUrl", value: run.mcpUrl }),
  ]);
  const attrs = { name: run.scenario, tests: run.checks.length + 1, failures: failuresOf(run), errors: 0, skipped: 0, time: formatSeconds(run.durationMs) };
  return element("testsuite", attrs, [properties, clientCase(run), ...run.checks.map((check) => checkCase(run.scenario, check))]);
}

function clientCase(run: ScenarioRun): string {
  const problems = clientProblems(run);
  const ended = run.child.exitCode === null ? `ended by ${run.child.signal ?? "a signal"}` : `exited with code ${run.child.exitCode}`;
  const children = problems.length > 0
    ? [textElement("failure", { message: problems.join("; "), type: "client" }, `${problems.join("\n")}\nThe command ${ended}.`)]
    : [textElement("system-out", {}, `The command ${ended}.`)];
  return element("testcase", { classname: run.scenario, name: CLIENT_RUN_ID, time: formatSeconds(run.durationMs) }, children);
}

function checkCase(scenario: string, check: Check): string {
  const attrs = { classname: scenario, name: check.id, time: 0 };
  const evidence = check.evidence.length > 0 ? `\nEvidence: journal entries ${check.evidence.join(", ")}` : "";
  switch (check.status) {
    case "fail":
      return element("testcase", attrs, [textElement("failure", { message: check.message, type: "fail" }, `${check.message}${evidence}`)]);
    case "warning":
      return element("testcase", attrs, [
        element("properties", {}, [element("property", { name: "faultline.status", value: "warning" })]),
        textElement("system-out", {}, `warning: ${check.message}${evidence}`),
      ]);
    case "pass":
    case "info":
      return element("testcase", attrs, [textElement("system-out", {}, `${check.status}: ${check.message}${evidence}`)]);
  }
}
