import { commandStatus, formatSeconds, resultLabel, runLabel, tally, wallTime, type ScenarioResult } from "./run-result.ts";

const COUNTS = ["requests", "faults", "passed", "failed", "warnings", "info"] as const;

/**
 * The progress table `faultline run` prints, a row per scenario as it ends, with the reasons under a row that did
 * not pass; `names` sizes the first column and `timeoutMs` the client column ("timed out after N s" is its widest).
 */
export function progressTable(names: readonly string[], timeoutMs: number) {
  const width = Math.max("scenario".length, ...names.map((name) => name.length));
  const clientWidth = `timed out after ${formatSeconds(timeoutMs)} s`.length;
  const cells = (first: string, client: string, counts: readonly (string | number)[], time: string, result: string) =>
    `${first.padEnd(width)}  ${client.padEnd(clientWidth)}  ${counts.map((count, i) => String(count).padStart(COUNTS[i]!.length)).join("  ")}  ${time.padStart(7)}  ${result}`.trimEnd() + "\n";
  return {
    header: () => cells("scenario", "client", COUNTS, "time", "result"),
    row: (result: ScenarioResult) => {
      const { run } = result;
      const t = tally(run);
      const counts = [run.journal.length, result.faultEntries.length, t.pass, t.fail, t.warning, t.info];
      const line = cells(runLabel(run), commandStatus(run), counts, wallTime(run.durationMs), resultLabel(result));
      return result.result === "pass" ? line : line + result.reasons.map((reason) => `  - ${reason}\n`).join("");
    },
  };
}
