import { z } from "zod";
import { CheckSchema } from "../checks/check.ts";
import type { Skipped } from "./all-scenarios.ts";
import type { RunPolicy } from "./run-args.ts";
import { commandStatus, tally, type ScenarioResult } from "./run-result.ts";

const JudgementSchema = z.enum(["pass", "fail", "not exercised", "not judged"]);

/** One scenario in `--json`'s file. */
export const ScenarioReportSchema = z.object({
  scenario: z.string(),
  params: z.record(z.string(), z.unknown()),
  sessionId: z.string(),
  mcpUrl: z.string(),
  /** The --each values the command was given ({} without --each). */
  variant: z.record(z.string(), z.string()),
  /** pass, fail, not exercised or not judged: the judgement, or fail when the command itself failed. */
  result: JudgementSchema,
  /** What the checks and the journal alone say. */
  judgement: JudgementSchema,
  /** Whether this scenario makes the run fail (--allow-unexercised and --allow-unjudged let some through). */
  failsRun: z.boolean(),
  /** Every reason behind the result, one sentence each, the command's first. */
  reasons: z.array(z.string()),
  command: z.object({
    /** "exit 0", "exit 1", "signal SIGTERM" or "timed out after 10 s". */
    status: z.string(),
    /** The exit code; null when a signal ended it, or when it timed out (its own code then says nothing). */
    exitCode: z.number().int().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    timeoutSeconds: z.number(),
    /** Whether the command's own end fails the scenario (non-zero exit unless --ignore-exit, timeout, no request). */
    failed: z.boolean(),
  }),
  durationMs: z.number().int().nonnegative(),
  /** Journal entries: every exchange the command had with its session. */
  requests: z.number().int().nonnegative(),
  faults: z.object({
    /** How many exchanges carried the scenario's fault. */
    fired: z.number().int().nonnegative(),
    /** Their journal seqs: the evidence that it fired. */
    entries: z.array(z.number().int()),
    /** How many of them per fault kind (http_status, cut_stream, …). */
    kinds: z.record(z.string(), z.number().int()),
  }),
  counts: z.object({ pass: z.number().int(), fail: z.number().int(), warning: z.number().int(), info: z.number().int() }),
  /** The session's checks as GET /api/sessions/{id}/checks gave them, with their evidence (journal seqs). */
  checks: z.array(CheckSchema),
});

/** The file `faultline run --json FILE` writes. */
export const RunReportSchema = z.object({
  /** Whether the run failed (faultline exits 1). */
  failed: z.boolean(),
  options: z.object({ ignoreExit: z.boolean(), allowUnexercised: z.boolean(), allowUnjudged: z.boolean(), timeoutSeconds: z.number() }),
  durationMs: z.number().int().nonnegative(),
  scenarios: z.array(ScenarioReportSchema),
  skipped: z.array(z.object({ scenario: z.string(), reason: z.string() })),
});
export type RunReport = z.infer<typeof RunReportSchema>;

/** The results as `--json` writes them, checked against the schema that declares the file. */
export function jsonReport(results: readonly ScenarioResult[], skipped: readonly Skipped[], policy: RunPolicy, timeoutMs: number): string {
  const report: RunReport = {
    failed: results.some((result) => result.failsRun),
    options: { ...policy, timeoutSeconds: timeoutMs / 1000 },
    durationMs: Math.round(results.reduce((sum, result) => sum + result.run.durationMs, 0)),
    scenarios: results.map(scenarioReport),
    skipped: [...skipped],
  };
  return `${JSON.stringify(RunReportSchema.parse(report), null, 2)}\n`;
}

function scenarioReport(result: ScenarioResult): RunReport["scenarios"][number] {
  const { run } = result;
  const kinds: Record<string, number> = {};
  for (const line of run.journal) if (line.fault) kinds[line.fault.kind] = (kinds[line.fault.kind] ?? 0) + 1;
  return {
    scenario: run.scenario,
    params: run.params,
    sessionId: run.sessionId,
    mcpUrl: run.mcpUrl,
    variant: run.variant,
    result: result.result,
    judgement: result.judgement,
    failsRun: result.failsRun,
    reasons: result.reasons,
    command: {
      status: commandStatus(run),
      exitCode: run.child.timedOut ? null : run.child.exitCode,
      signal: run.child.timedOut ? null : run.child.signal,
      timedOut: run.child.timedOut,
      timeoutSeconds: run.timeoutMs / 1000,
      failed: result.commandProblems.length > 0,
    },
    durationMs: Math.round(run.durationMs),
    requests: run.journal.length,
    faults: { fired: result.faultEntries.length, entries: result.faultEntries, kinds },
    counts: tally(run),
    checks: run.checks,
  };
}
