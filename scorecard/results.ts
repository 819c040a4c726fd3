/** The scorecard's committed results (scorecard/results.json): the shape, and how a `faultline run --json` row becomes a cell. */
import { z } from "zod";
import type { RunReport } from "../src/cli/json-report.ts";
import { TIMING_CHECKS } from "./columns.ts";

/** A cell: the run's result, with a warning told apart from a clean pass, and "not run" for what --all leaves out. */
export const CellResultSchema = z.enum(["pass", "warning", "fail", "not exercised", "not judged", "not run"]);
export type CellResult = z.infer<typeof CellResultSchema>;

export const CellSchema = z.object({
  result: CellResultSchema,
  /** A check that judged the cell measured a gap (TIMING_CHECKS): its numbers change from run to run. */
  timingSensitive: z.boolean(),
  /** Each check's id and status, in the order the server gave them: what the determinism test compares. */
  checks: z.array(z.object({ id: z.string(), status: z.string() })),
  /** How the command ended ("exit 0", "timed out after 40 s"), or why the scenario was not run. */
  command: z.string(),
  /** The evidence file, relative to scorecard/. */
  evidence: z.string().optional(),
  /** The command that reproduces the cell against `npm run serve` on the default port. */
  reproduce: z.string(),
  /** Where a second full run (Results.secondRun) gave this cell another result or check status: what it gave (cellKey). */
  otherRun: z.string().optional(),
});
export type Cell = z.infer<typeof CellSchema>;

export const ClientSchema = z.object({
  id: z.string(),
  library: z.string(),
  version: z.string(),
  drives: z.string(),
  era: z.enum(["modern", "legacy"]),
  options: z.string(),
  adapter: z.array(z.string()),
  oauth: z.string().optional(),
  /** When this column was last run (YYYY-MM-DD) and how long its run took. */
  date: z.string(),
  durationSeconds: z.number(),
});

export const ResultsSchema = z.object({
  faultline: z.object({ version: z.string(), commit: z.string() }),
  node: z.string(),
  server: z.string(),
  timeoutSeconds: z.number(),
  clients: z.array(ClientSchema),
  /** The catalogue in the server's order, each with the params --all ran it with, or why --all leaves it out. */
  scenarios: z.array(z.object({ id: z.string(), params: z.record(z.string(), z.unknown()), notRun: z.string().optional() })),
  /** cells[client][scenario]. */
  cells: z.record(z.string(), z.record(z.string(), CellSchema)),
  /** The comparison with a second full run (`npm run scorecard -- --against DIR`): which run, how many cells were compared, how many differed. */
  secondRun: z.object({ file: z.string(), commit: z.string(), compared: z.number(), differing: z.number(), notCompared: z.string() }).optional(),
});
export type Results = z.infer<typeof ResultsSchema>;

type Row = RunReport["scenarios"][number];

/** Whether a check that judged (not info) rests on time (TIMING_CHECKS). */
export const timingSensitive = (checks: readonly { id: string; status: string }[]): boolean => checks.some((check) => check.status !== "info" && TIMING_CHECKS.has(check.id));

/** The cell of one scenario's row. */
export function cellOf(row: Row, evidence: string, reproduce: string): Cell {
  const result: CellResult = row.result === "pass" && row.counts.warning > 0 ? "warning" : row.result;
  return {
    result,
    timingSensitive: timingSensitive(row.checks),
    checks: row.checks.map((check) => ({ id: check.id, status: check.status })),
    command: row.command.status,
    evidence,
    reproduce,
  };
}

/** What a determinism comparison looks at in a cell: its result and its checks' statuses. */
export function cellKey(cell: Cell): string {
  return `${cell.result} [${cell.checks.map((check) => `${check.id}=${check.status}`).join(", ")}]`;
}
