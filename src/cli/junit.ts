import type { Check } from "../checks/check.ts";
import { CLIENT_RUN_ID, commandEnded, FAULT_JUDGED_ID, formatSeconds, runLabel, type ScenarioResult } from "./run-result.ts";
import { element, textElement } from "./xml.ts";

/**
 * The results as a JUnit XML report: a test suite per scenario, with a case for the client run itself (failed when
 * the command exited non-zero, timed out or never reached its session), a case for the scenario's fault (failed when
 * it never fired or no check judged it; skipped when that is allowed) and a case per check. A failed check is a
 * <failure> with its message and evidence; a warning passes with its message in <system-out> and a faultline.status
 * property; an info check passes with its message in <system-out>.
 */
export function junitReport(results: readonly ScenarioResult[]): string {
  const suites = results.map(suite);
  const sum = (count: (result: ScenarioResult) => number) => results.reduce((total, result) => total + count(result), 0);
  const attrs = {
    name: "faultline run",
    tests: sum(testsOf),
    failures: sum(failuresOf),
    errors: 0,
    skipped: sum(skippedOf),
    time: formatSeconds(sum((result) => result.run.durationMs)),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element("testsuites", attrs, suites)}\n`;
}

const testsOf = (result: ScenarioResult) => result.run.checks.length + 2;
const faultCaseFails = (result: ScenarioResult) => isUnjudged(result) && result.judgementFailsRun;
const skippedOf = (result: ScenarioResult) => (isUnjudged(result) && !faultCaseFails(result) ? 1 : 0);

function failuresOf(result: ScenarioResult): number {
  const checks = result.run.checks.filter((check) => check.status === "fail").length;
  return checks + (result.commandProblems.length > 0 ? 1 : 0) + (faultCaseFails(result) ? 1 : 0);
}

function isUnjudged(result: ScenarioResult): boolean {
  return result.judgement === "not exercised" || result.judgement === "not judged";
}

function suite(result: ScenarioResult): string {
  const { run } = result;
  const properties = element("properties", {}, [
    element("property", { name: "faultline.session", value: run.sessionId }),
    element("property", { name: "faultline.params", value: JSON.stringify(run.params) }),
    element("property", { name: "faultline.mcpUrl", value: run.mcpUrl }),
    element("property", { name: "faultline.result", value: result.result }),
  ]);
  const attrs = {
    name: runLabel(run),
    tests: testsOf(result),
    failures: failuresOf(result),
    errors: 0,
    skipped: skippedOf(result),
    time: formatSeconds(run.durationMs),
  };
  return element("testsuite", attrs, [properties, clientCase(result), faultCase(result), ...run.checks.map((check) => checkCase(run.scenario, check))]);
}

function clientCase(result: ScenarioResult): string {
  const { run } = result;
  const problems = result.commandProblems;
  const ignored = run.child.exitCode !== 0 && !run.child.timedOut && !problems.includes(`the command ${commandEnded(run)}`);
  const ended = `The command ${commandEnded(run)}${ignored ? " (ignored: --ignore-exit)" : ""}.`;
  const children =
    problems.length > 0
      ? [textElement("failure", { message: problems.join("; "), type: "client" }, [...problems, ...(run.child.timedOut ? [] : [ended])].join("\n"))]
      : [textElement("system-out", {}, ended)];
  return element("testcase", { classname: run.scenario, name: CLIENT_RUN_ID, time: formatSeconds(run.durationMs) }, children);
}

function faultCase(result: ScenarioResult): string {
  const attrs = { classname: result.run.scenario, name: FAULT_JUDGED_ID, time: 0 };
  const message = `${result.judgement}: ${result.why}`;
  if (!isUnjudged(result)) return element("testcase", attrs, [textElement("system-out", {}, message)]);
  if (faultCaseFails(result)) return element("testcase", attrs, [textElement("failure", { message, type: result.judgement }, message)]);
  return element("testcase", attrs, [element("skipped", { message })]);
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
