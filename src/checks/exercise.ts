/**
 * Whether a scenario's trouble reached the client, read from the journal: each exchange a scenario faulted carries its
 * fault. Shared by GET /api/sessions/{id}/checks and `faultline run`, which words the same facts the same way.
 */

/** The parts of a journal entry this reads: the server's entries and the CLI's journal lines both have them. */
export interface ExerciseLine {
  seq: number;
  request: { method: string };
  rpc: { method?: string; toolName?: string };
  fault?: { kind: string; rule: string };
}

/** How a run tells a scenario was exercised (the scenario's `judging.exercisedBy`). */
export type ExercisedBy = "fault" | "answers" | "control";

const SHOWN = 5;

/** One exchange in a few words: the JSON-RPC method (and tool), or the HTTP method when there is none. */
function exchange(line: ExerciseLine): string {
  if (line.rpc.method === undefined) return line.request.method;
  return line.rpc.toolName === undefined ? line.rpc.method : `${line.rpc.method} ${line.rpc.toolName}`;
}

function listed(lines: readonly ExerciseLine[]): string {
  const shown = lines.slice(0, SHOWN).map(exchange).join(", ");
  return lines.length > SHOWN ? `${shown} and ${lines.length - SHOWN} more` : shown;
}

/** "the client sent 3 requests (initialize, tools/list, tools/call echo)". */
export function describeRequests(journal: readonly ExerciseLine[]): string {
  if (journal.length === 0) return "the client sent no request";
  return `the client sent ${journal.length} request${journal.length === 1 ? "" : "s"} (${listed(journal)})`;
}

/** Why a fault scenario was not exercised, from its journal. */
export function describeNeverFired(journal: readonly ExerciseLine[]): string {
  if (journal.length === 0) return "the fault never fired: the client sent no request";
  return `the fault never fired: ${describeRequests(journal)}, and the scenario faulted none of them`;
}

/** Where the fault fired and what the client sent after the last time, from the journal. */
export function describeFired(journal: readonly ExerciseLine[]): string {
  const faulted = journal.filter((line) => line.fault !== undefined);
  const first = faulted[0];
  const last = faulted.at(-1);
  if (first === undefined || last === undefined) return describeNeverFired(journal);
  const where = faulted.length === 1 ? `entry ${first.seq}` : `entries ${faulted.slice(0, SHOWN).map((l) => l.seq).join(", ")}${faulted.length > SHOWN ? " …" : ""}`;
  const fired = `the fault fired ${faulted.length} time${faulted.length === 1 ? "" : "s"} (${where}; first ${exchange(first)} got ${first.fault!.kind}: ${first.fault!.rule})`;
  const after = journal.filter((line) => line.seq > last.seq);
  return after.length === 0
    ? `${fired}, and the client sent nothing after ${faulted.length === 1 ? "it" : "the last"}`
    : `${fired}, and after ${faulted.length === 1 ? "it" : "the last"} the client sent ${listed(after)}`;
}

/** The most fault seqs an exercise report lists (it always says how many there were). */
const MAX_LISTED = 20;

/** What GET /checks says of the scenario's trouble: how it is exercised, how often its fault fired, and in words. */
export interface Exercise {
  exercisedBy: ExercisedBy;
  /** Exchanges that carried a fault. */
  fired: number;
  /** The first of their seqs (at most MAX_LISTED). */
  faultEntries: number[];
  /** The journal's account: where the fault fired and what followed, or why it never did. */
  reading: string;
  /**
   * For a scenario whose trouble lies beyond its journalled fault (`judging.reachedBy`): whether one of those checks
   * is present, which is what shows the client got that far.
   */
  reached?: boolean;
}

/** A scenario's `judging.reachedBy`, and the ids of the checks the journal gave. */
export interface Reach {
  by: readonly string[];
  present: readonly string[];
}

export function exerciseOf(journal: readonly ExerciseLine[], exercisedBy: ExercisedBy, reach?: Reach): Exercise {
  const faulted = journal.filter((line) => line.fault !== undefined);
  const reading = exercisedBy === "answers" && faulted.length === 0
    ? `the scenario's trouble is in its answers, which the journal does not mark as a fault: ${describeRequests(journal)}`
    : exercisedBy === "control" && faulted.length === 0
    ? `a control scenario, nothing was faulted: ${describeRequests(journal)}`
    : describeFired(journal);
  const exercise = { exercisedBy, fired: faulted.length, faultEntries: faulted.slice(0, MAX_LISTED).map((l) => l.seq), reading };
  if (reach === undefined || reach.by.length === 0) return exercise;
  const reached = reach.present.some((id) => reach.by.includes(id));
  const beyond = reached ? `; ${reach.by.join(" or ")} shows the scenario's own trouble reached the client` : `; but ${reach.by.join(" or ")}, which would show the scenario's own trouble reached the client, is absent`;
  return { ...exercise, reading: reading + beyond, reached };
}
