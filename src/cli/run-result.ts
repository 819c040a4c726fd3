import type { Check, CheckStatus } from "../checks/check.ts";
import type { JournalLine } from "./api.ts";
import type { ChildOutcome } from "./child.ts";
import { describeFired, describeNeverFired, describeRequests, type ExercisedBy } from "../checks/exercise.ts";
import type { RunPolicy } from "./run-args.ts";

/** One scenario of `faultline run`: the session, how the client command ended, its journal and the checks. */
export interface ScenarioRun {
  scenario: string;
  params: Record<string, unknown>;
  sessionId: string;
  mcpUrl: string;
  timeoutMs: number;
  durationMs: number;
  /** How the server says this scenario is exercised (its `judging`); `fault` when a server does not say. */
  exercisedBy: ExercisedBy;
  /** The checks of which one must be present for the scenario's trouble to count as reached (its `judging.reachedBy`). */
  reachedBy?: readonly string[];
  child: ChildOutcome;
  /** The session's journal: every exchange the client had with it, with the fault the scenario chose. */
  journal: JournalLine[];
  checks: Check[];
  /** The --each values this run's command was given; {} without --each. */
  variant: Record<string, string>;
}

/** How a run is named in the table and the reports: the scenario, and the --each values after it. */
export function runLabel(run: Pick<ScenarioRun, "scenario" | "variant">): string {
  const values = Object.entries(run.variant).map(([name, value]) => `${name}=${value}`);
  return values.length ? `${run.scenario} [${values.join(", ")}]` : run.scenario;
}

/**
 * What the checks and the journal say of a scenario: `fail` (a check failed), `not exercised` (its fault never
 * fired), `not judged` (the fault fired, but no check judged what the client did), or `pass`.
 */
export type Judgement = "pass" | "fail" | "not exercised" | "not judged";

/** A scenario's result: its judgement, or `fail` when the command itself failed (exit status, timeout, no request). */
export interface ScenarioResult {
  run: ScenarioRun;
  result: Judgement;
  judgement: Judgement;
  /** Whether this scenario makes the run fail (a not exercised or not judged one may be allowed). */
  failsRun: boolean;
  /** Whether the judgement alone fails the run: a failed check, or not exercised or not judged without its allowance. */
  judgementFailsRun: boolean;
  /** Why the command counts as failed: empty when it does not. */
  commandProblems: string[];
  /** Why the judgement is what it is, one sentence. */
  why: string;
  /** Every reason behind the result, the command's first. */
  reasons: string[];
  /** The seqs of the journal entries whose exchange carried the scenario's fault. */
  faultEntries: number[];
}

/** The id of the test case that stands for the client run itself, next to the checks' ids. */
export const CLIENT_RUN_ID = "client-run";
/** The id of the test case that says whether the scenario's fault fired and a check judged what followed. */
export const FAULT_JUDGED_ID = "fault-judged";

/** How many checks ended with each status. */
export function tally(run: ScenarioRun): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warning: 0, info: 0 };
  for (const check of run.checks) counts[check.status] += 1;
  return counts;
}

/** How the command ended, in a few words: `exit 1`, `signal SIGTERM`, `timed out after 10 s`. */
export function commandStatus(run: ScenarioRun): string {
  // A timed-out command's own exit code (0 from a client that exits on SIGTERM) says nothing: the deadline ended it.
  if (run.child.timedOut) return `timed out after ${formatSeconds(run.timeoutMs)} s`;
  return run.child.exitCode === null ? `signal ${run.child.signal ?? "unknown"}` : `exit ${run.child.exitCode}`;
}

/** How the command ended, as a clause: "exited with status 1", "was ended by SIGTERM", "timed out after 10 s …". */
export function commandEnded(run: ScenarioRun): string {
  if (run.child.timedOut) return `timed out after ${formatSeconds(run.timeoutMs)} s (--timeout) and was stopped`;
  return run.child.exitCode === null ? `was ended by ${run.child.signal ?? "a signal"}` : `exited with status ${run.child.exitCode}`;
}

function exitedCleanly(run: ScenarioRun): boolean {
  return !run.child.timedOut && run.child.exitCode === 0;
}

/** Judges one scenario run under the run's policy. */
export function judge(run: ScenarioRun, policy: RunPolicy): ScenarioResult {
  const commandProblems: string[] = [];
  const notes: string[] = [];
  if (run.child.timedOut) commandProblems.push(`the command ${commandEnded(run)}`);
  else if (!exitedCleanly(run)) (policy.ignoreExit ? notes : commandProblems).push(`the command ${commandEnded(run)}${policy.ignoreExit ? " (ignored: --ignore-exit)" : ""}`);
  if (run.journal.length === 0) commandProblems.push(`the command sent no request to the session (${run.mcpUrl}): is it reading FAULTLINE_MCP_URL?`);

  const faultEntries = run.journal.filter((line) => line.fault !== undefined).map((line) => line.seq);
  const { judgement, why } = judgeChecks(run, faultEntries.length);
  const result: Judgement = commandProblems.length > 0 ? "fail" : judgement;
  const judgementFailsRun =
    judgement === "fail" || (judgement === "not exercised" && !policy.allowUnexercised) || (judgement === "not judged" && !policy.allowUnjudged);
  const failsRun = commandProblems.length > 0 || judgementFailsRun;
  const label = judgement === "pass" || judgement === "fail" ? "" : `${judgement}: `;
  const reasons = [...commandProblems, ...notes, `${label}${why}`];
  return { run, result, judgement, failsRun, judgementFailsRun, commandProblems, why, reasons, faultEntries };
}

function judgeChecks(run: ScenarioRun, fired: number): { judgement: Judgement; why: string } {
  const t = tally(run);
  const ids = (status: CheckStatus) => run.checks.filter((c) => c.status === status).map((c) => c.id).join(", ");
  const kind = run.exercisedBy;
  if (t.fail > 0) {
    const firedSaid = kind !== "answers" && fired > 0 ? `the fault fired ${plural(fired, "time")}; ` : "";
    return { judgement: "fail", why: `${firedSaid}${plural(t.fail, "check")} failed: ${ids("fail")}` };
  }
  const unreached = unreachedBy(run);
  if (unreached !== undefined) return { judgement: "not exercised", why: unreached };
  const judged = t.pass + t.warning > 0;
  const checksSaid = `${plural(t.pass, "check")} passed${t.warning > 0 ? `, ${plural(t.warning, "warning")} (${ids("warning")})` : ""}`;
  if (kind === "answers") {
    if (judged) return { judgement: "pass", why: `${checksSaid}: ${ids("pass") || ids("warning")}` };
    return {
      judgement: "not judged",
      why: `no check judged what the client did, and the journal cannot show whether this scenario's trouble reached it (it is in the scenario's answers, not a journalled fault): ${describeRequests(run.journal)}${infoOnly(run)}`,
    };
  }
  // A control scenario's own "faults" (baseline's delay, the conformance fixture's cut) are part of a correct server.
  if (kind === "control" && !judged) {
    const faulted = fired === 0 ? "nothing was faulted" : `its fixture's ${plural(fired, "delay or cut")} are part of a correct server`;
    return { judgement: "pass", why: `a control scenario, ${faulted}: ${describeRequests(run.journal)}` };
  }
  // A control scenario has no fault to fire: checks that judged the client are all it can show.
  if (kind === "control" && fired === 0) return { judgement: "pass", why: `a control scenario, nothing was faulted; ${checksSaid}: ${ids("pass") || ids("warning")}` };
  if (fired === 0) {
    return { judgement: "not exercised", why: `${describeNeverFired(run.journal)}${infoOnly(run)}` };
  }
  if (!judged) return { judgement: "not judged", why: `no check judged what the client did: ${describeFired(run.journal)}${infoOnly(run)}` };
  return { judgement: "pass", why: `the fault fired ${plural(fired, "time")}; ${checksSaid}: ${ids("pass") || ids("warning")}` };
}

/** Why the scenario's trouble beyond its journalled fault was not reached: none of its `reachedBy` checks is present. */
function unreachedBy(run: ScenarioRun): string | undefined {
  if (run.reachedBy === undefined || run.reachedBy.length === 0) return undefined;
  if (run.checks.some((c) => run.reachedBy!.includes(c.id))) return undefined;
  const named = run.reachedBy.join(" or ");
  return `the journalled fault is only the way in, and ${named}, which shows the scenario's own trouble reached the client, is absent: ${describeRequests(run.journal)}${infoOnly(run)}`;
}

function infoOnly(run: ScenarioRun): string {
  const info = run.checks.filter((c) => c.status === "info").map((c) => c.id);
  return info.length > 0 ? ` (info only: ${info.join(", ")})` : "";
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function formatSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

/** A wall time for people: "2.6 s". */
export function wallTime(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The result as the table and the Markdown show it: upper case when it fails the run, "(allowed)" when it does not. */
export function resultLabel(result: ScenarioResult): string {
  if (result.result === "pass") return "pass";
  if (result.result === "fail") return "FAIL";
  return result.failsRun ? result.result.toUpperCase() : `${result.result} (allowed)`;
}
