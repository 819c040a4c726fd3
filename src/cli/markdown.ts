import type { Skipped } from "./all-scenarios.ts";
import { commandEnded, commandStatus, plural, resultLabel, runLabel, tally, wallTime, type ScenarioResult } from "./run-result.ts";

/**
 * The results as Markdown for a CI step summary: an overview table, then a section per scenario that says what
 * happened (the result, how the command ended, how often the fault fired, what the checks said, why) and a line per check.
 */
export function markdownReport(results: readonly ScenarioResult[], skipped: readonly Skipped[]): string {
  const out = [
    "# Faultline run",
    "",
    `${summaryLine(results, skipped.length)}.`,
    "",
    row(["Scenario", "Result", "Client", "Requests", "Faults fired", "Passed", "Failed", "Warnings", "Info", "Time"]),
    row(["---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
    ...results.map((result) => {
      const { run } = result;
      const t = tally(run);
      return row([code(runLabel(run)), bold(result), commandStatus(run), run.journal.length, result.faultEntries.length, t.pass, t.fail, t.warning, t.info, wallTime(run.durationMs)]);
    }),
  ];
  if (skipped.length > 0) {
    out.push("", "Skipped:", "", ...skipped.map(({ scenario, reason }) => `- ${code(scenario)}: ${cell(reason)}`));
  }
  for (const result of results) {
    const { run } = result;
    out.push("", `## ${code(runLabel(run))}`, "", cell(story(result)), "");
    out.push(...result.reasons.map((reason) => `- ${cell(reason)}`));
    if (run.checks.length === 0) {
      out.push("", "No check gave a result for this session.");
      continue;
    }
    out.push("", row(["Check", "Status", "Message", "Evidence"]), row(["---", "---", "---", "---"]));
    for (const check of run.checks) {
      out.push(row([code(check.id), check.status === "fail" ? "**fail**" : check.status, cell(check.message), check.evidence.join(", ")]));
    }
  }
  return `${out.join("\n")}\n`;
}

/** "3 scenarios run: 1 pass, 1 fail, 1 not exercised; 2 skipped; the run fails". */
export function summaryLine(results: readonly ScenarioResult[], skipped: number): string {
  const count = (result: string) => results.filter((r) => r.result === result).length;
  const parts = [`${count("pass")} pass`, `${count("fail")} fail`];
  for (const result of ["not exercised", "not judged"]) if (count(result) > 0) parts.push(`${count(result)} ${result}`);
  const fails = results.some((r) => r.failsRun);
  return `${plural(results.length, "scenario")} run: ${parts.join(", ")}${skipped > 0 ? `; ${skipped} skipped` : ""}; the run ${fails ? "fails" : "passes"}`;
}

/** What happened, in one paragraph: the result, the command, the fault, the checks and the time. */
function story(result: ScenarioResult): string {
  const { run } = result;
  const t = tally(run);
  const fired = result.faultEntries.length;
  const never = { fault: "the fault never fired", control: "nothing was faulted (a control scenario)", answers: "the journal marks no fault (this scenario's trouble is in its answers)" };
  const fault = fired === 0 ? never[run.exercisedBy] : `the fault fired ${plural(fired, "time")} (entr${fired === 1 ? "y" : "ies"} ${result.faultEntries.join(", ")})`;
  const checks = run.checks.length === 0 ? "no check gave a result" : `checks: ${t.pass} passed, ${t.fail} failed, ${plural(t.warning, "warning")}, ${t.info} info`;
  return `Result: ${bold(result)}. The command ${commandEnded(run)}${run.child.timedOut ? "" : ` after ${wallTime(run.durationMs)}`}, having sent ${plural(run.journal.length, "request")}; ${fault}; ${checks}.`;
}

function bold(result: ScenarioResult): string {
  return result.failsRun ? `**${resultLabel(result)}**` : resultLabel(result);
}

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** Table cells hold one line, and a `|` would end the cell; `<` would start HTML. */
function cell(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").replace(/[|\\<>]/g, (char) => `\\${char}`);
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
