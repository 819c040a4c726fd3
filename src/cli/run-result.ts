import type { Check, CheckStatus } from "../checks/check.ts";
import type { ChildOutcome } from "./child.ts";

/** One scenario of `faultline run`: the session, how the client command ended, and the checks that judged it. */
export interface ScenarioRun {
  scenario: string;
  params: Record<string, unknown>;
  sessionId: string;
  mcpUrl: string;
  timeoutMs: number;
  durationMs: number;
  child: ChildOutcome;
  /** Whether the session's journal holds any exchange: false when the client never reached it. */
  reached: boolean;
  checks: Check[];
}

/** The id of the test case that stands for the client run itself, next to the checks' ids. */
export const CLIENT_RUN_ID = "client-run";

/** How many checks ended with each status. */
export function tally(run: ScenarioRun): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warning: 0, info: 0 };
  for (const check of run.checks) counts[check.status] += 1;
  return counts;
}

/** Why the client run itself counts as failed (nothing to judge, or no end): empty when it does not. */
export function clientProblems(run: ScenarioRun): string[] {
  const problems: string[] = [];
  if (run.child.timedOut) problems.push(`the command was still running after ${formatSeconds(run.timeoutMs)} s (--timeout) and was killed`);
  if (!run.reached) problems.push(`the command sent no request to the session (${run.mcpUrl}): is it reading FAULTLINE_MCP_URL?`);
  return problems;
}

/** How the command ended, in a few words for the table. */
export function clientState(run: ScenarioRun): string {
  if (run.child.timedOut) return "timed out";
  if (!run.reached) return "no requests";
  return run.child.exitCode === null ? `killed ${run.child.signal ?? ""}`.trim() : `exit ${run.child.exitCode}`;
}

export function scenarioFailed(run: ScenarioRun): boolean {
  return clientProblems(run).length > 0 || run.checks.some((check) => check.status === "fail");
}

export function formatSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}
