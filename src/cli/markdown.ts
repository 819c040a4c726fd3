import type { Skipped } from "./all-scenarios.ts";
import { clientProblems, clientState, scenarioFailed, tally, type ScenarioRun } from "./run-result.ts";

/** The runs as Markdown for a CI step summary: an overview table, then a table per scenario with a line per check. */
export function markdownReport(runs: readonly ScenarioRun[], skipped: readonly Skipped[]): string {
  const failed = runs.filter(scenarioFailed).length;
  const out = [
    "# Faultline run",
    "",
    `${runs.length} scenario${runs.length === 1 ? "" : "s"}, ${failed} failed.`,
    "",
    row(["Scenario", "Result", "Client", "Passed", "Failed", "Warnings", "Info"]),
    row(["---", "---", "---", "---:", "---:", "---:", "---:"]),
    ...runs.map((run) => {
      const t = tally(run);
      return row([code(run.scenario), scenarioFailed(run) ? "**FAIL**" : "ok", clientState(run), t.pass, t.fail, t.warning, t.info]);
    }),
  ];
  if (skipped.length > 0) {
    out.push("", "Skipped:", "", ...skipped.map(({ scenario, reason }) => `- ${code(scenario)}: ${cell(reason)}`));
  }
  for (const run of runs) {
    out.push("", `## ${code(run.scenario)}`, "");
    for (const problem of clientProblems(run)) out.push(`**Client failed:** ${cell(problem)}`, "");
    if (run.checks.length === 0) {
      out.push("No check applied: none of the faults a check judges happened in this session.");
      continue;
    }
    out.push(row(["Check", "Status", "Message", "Evidence"]), row(["---", "---", "---", "---"]));
    for (const check of run.checks) {
      out.push(row([code(check.id), check.status === "fail" ? "**fail**" : check.status, cell(check.message), check.evidence.join(", ")]));
    }
  }
  return `${out.join("\n")}\n`;
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
