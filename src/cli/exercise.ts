import type { JournalLine } from "./api.ts";

/**
 * How the journal tells whether a scenario was exercised. Most scenarios fault requests through their `decide`, and
 * each faulted exchange carries its fault in the journal: such a scenario is exercised when one did. Two kinds are
 * told apart by id, since the catalogue has no field for it (test/cli/scenario-kinds.test.ts keeps these lists in
 * step with the registry):
 * - control: nothing to fault (a correct server; baseline's optional delay and one conformance tool's cut aside), so
 *   a run in which nothing fired passes on the command's own success;
 * - answers: the trouble is in the scenario's answers (an elicitation round, an expired cursor, a recording), which
 *   the journal does not mark as a fault, so only the checks can say that it was exercised.
 */
const CONTROL: ReadonlySet<string> = new Set(["baseline", "compat.sdk_v2", "conformance"]);
const ANSWERS: ReadonlySet<string> = new Set(["elicitation.approval", "elicitation.decline", "elicitation.url_mode", "pagination.bad_cursor", "catalog.pagination", "replay"]);

export type ScenarioKind = "fault" | "control" | "answers";

/** How a scenario is exercised; an id the CLI does not know (a newer server's) is taken to fault through decide. */
export function scenarioKind(id: string): ScenarioKind {
  return CONTROL.has(id) ? "control" : ANSWERS.has(id) ? "answers" : "fault";
}

/** The scenario ids of each kind but `fault`, for the gate test. */
export const KNOWN_KINDS = { control: [...CONTROL], answers: [...ANSWERS] } as const;

const SHOWN = 5;

/** One exchange in a few words: the JSON-RPC method (and tool), or the HTTP method when there is none. */
function exchange(line: JournalLine): string {
  if (line.rpc.method === undefined) return line.request.method;
  return line.rpc.toolName === undefined ? line.rpc.method : `${line.rpc.method} ${line.rpc.toolName}`;
}

function listed(lines: readonly JournalLine[]): string {
  const shown = lines.slice(0, SHOWN).map(exchange).join(", ");
  return lines.length > SHOWN ? `${shown} and ${lines.length - SHOWN} more` : shown;
}

/** "the client sent 3 requests (initialize, tools/list, tools/call echo)". */
export function describeRequests(journal: readonly JournalLine[]): string {
  if (journal.length === 0) return "the client sent no request";
  return `the client sent ${journal.length} request${journal.length === 1 ? "" : "s"} (${listed(journal)})`;
}

/** Why a fault scenario was not exercised, from its journal. */
export function describeNeverFired(journal: readonly JournalLine[]): string {
  if (journal.length === 0) return "the fault never fired: the client sent no request";
  return `the fault never fired: ${describeRequests(journal)}, and the scenario faulted none of them`;
}

/** Where the fault fired and what the client sent after the last time, from the journal. */
export function describeFired(journal: readonly JournalLine[]): string {
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
