import { clientState, scenarioFailed, tally, type ScenarioRun } from "./run-result.ts";

const COUNTS = ["passed", "failed", "warnings", "info"] as const;
const CLIENT_WIDTH = "no requests".length;

/** The progress table `faultline run` prints, a row per scenario as it ends; `names` sizes the first column. */
export function progressTable(names: readonly string[]) {
  const width = Math.max("scenario".length, ...names.map((name) => name.length));
  const cells = (first: string, client: string, counts: readonly (string | number)[], result: string) =>
    `${first.padEnd(width)}  ${client.padEnd(CLIENT_WIDTH)}  ${counts.map((count, i) => String(count).padStart(COUNTS[i]!.length)).join("  ")}  ${result}`.trimEnd() + "\n";
  return {
    header: () => cells("scenario", "client", COUNTS, "result"),
    row: (run: ScenarioRun) => {
      const t = tally(run);
      return cells(run.scenario, clientState(run), [t.pass, t.fail, t.warning, t.info], scenarioFailed(run) ? "FAIL" : "ok");
    },
  };
}
