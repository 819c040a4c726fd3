import { isRecord } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { answerOf, errorCode, type Exchange, firstFrom, resultOf, targetOf } from "./exchange.ts";
import { streamMessages } from "./stream-messages.ts";

const LIST_CHANGED = "notifications/tools/list_changed";
const INVALID_PARAMS = -32602;

/** The tool names a tools/list answer gave; undefined when it gave none the journal can read. */
function listedNames(x: Exchange): Set<string> | undefined {
  const tools = x.method === "tools/list" ? resultOf(x)?.tools : undefined;
  if (!Array.isArray(tools)) return undefined;
  return new Set(tools.flatMap((t) => (isRecord(t) && typeof t.name === "string" ? [t.name] : [])));
}

/**
 * The exchanges that told the client the tool list changed: a response stream (legacy), a GET stream or a
 * 2026-07-28 subscriptions/listen stream carrying notifications/tools/list_changed. The journal keeps no time per
 * event, so the client is taken to know by the end of that stream: nothing earlier is judged.
 */
function notices(all: readonly Exchange[]): Exchange[] {
  return all.filter((x) => streamMessages(x).some((m) => m.method === LIST_CHANGED));
}

/**
 * What the lists answered from some point on say of one tool name: `union` holds every name any of them gave,
 * `common` the names all of them gave (undefined while there is none). Grown from the end of the journal backwards,
 * so each list is read once whatever the number of notices.
 */
class ListsFrom {
  readonly union = new Set<string>();
  common: Set<string> | undefined;

  add(names: Set<string>): void {
    for (const name of names) this.union.add(name);
    if (this.common === undefined) this.common = new Set(names);
    else for (const name of this.common) if (!names.has(name)) this.common.delete(name);
  }

  /** Whether some later list differs from `before` on `name`: `before` had it and one list lacks it, or the reverse. */
  differs(name: string, before: Set<string>): boolean {
    if (this.common === undefined) return false;
    return before.has(name) ? !this.common.has(name) : this.union.has(name);
  }
}

/** Whether a call after the notice targets a tool that changed, given the list before it and the lists after it. */
function changed(call: Exchange, before: Set<string> | undefined, after: ListsFrom): boolean {
  const name = targetOf(call);
  if (name === undefined) return false;
  if (before !== undefined && after.differs(name, before)) return true;
  if (before !== undefined && !before.has(name)) return true;
  // Retired: listed before, refused now as an unknown tool.
  return before?.has(name) === true && errorCode(call) === INVALID_PARAMS;
}

/** The requests from `from` on (ascending start), walked until the client listed the tools again or called a changed one. */
function judge(requests: readonly Exchange[], from: number, notice: Exchange, before: Set<string> | undefined, after: ListsFrom): Observation {
  const where = `${LIST_CHANGED} (on the stream of seq ${notice.seq})`;
  for (let i = from; i < requests.length; i++) {
    const x = requests[i]!;
    if (x.method === "tools/list") {
      return observe("pass", `After ${where}, the client listed the tools again (seq ${x.seq}) before calling a tool that changed.`, notice.seq, x.seq);
    }
    if (x.method !== "tools/call" || !changed(x, before, after)) continue;
    const name = targetOf(x) ?? "(unnamed)";
    const known = before === undefined ? "" : before.has(name) ? ", which the change retired," : ", which was not in the list it had,";
    return observe(
      "fail",
      `After ${where}, the client called ${name}${known} without listing the tools again (seq ${x.seq}, ${answerOf(x)}).`,
      notice.seq,
      x.seq,
    );
  }
  // A tools/list whose own answer carried the notice (catalog.mutation's afterListCalls) gave the client the new list.
  if (listedNames(notice) !== undefined) {
    return observe("pass", `${LIST_CHANGED} came on the answer to tools/list (seq ${notice.seq}), which carried the changed list, and the client called no tool that list left out.`, notice.seq);
  }
  return observe("info", `No tools/list and no call of a changed tool after ${where}: nothing shows what the client made of it.`, notice.seq);
}

/** For a time, the names of the last tools/list (in arrival order) whose answer had ended by then. */
function listBefore(all: readonly Exchange[]): (at: number) => Set<string> | undefined {
  const ended = all.flatMap((x) => {
    const names = listedNames(x);
    return names === undefined ? [] : [{ x, names }];
  });
  ended.sort((a, b) => a.x.end - b.x.end);
  // latest[i]: of ended[0..i], the one that arrived last.
  const latest = ended.map((e) => e);
  for (let i = 1; i < latest.length; i++) if (latest[i - 1]!.x.index > latest[i]!.x.index) latest[i] = latest[i - 1]!;
  return (at) => {
    let lo = 0;
    let hi = ended.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ended[mid]!.x.end <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? undefined : latest[lo - 1]!.names;
  };
}

/**
 * tools-relisted-after-change: told that the tool list changed, the client lists the tools again before calling one
 * that changed. Notices with the same next tools/list are judged once, by the first of them (a later one before the
 * same relist shows nothing the first did not), so the walks never overlap and the check stays linear in the journal.
 */
export function catalogChangeChecks(all: readonly Exchange[]): Check[] {
  const requests = all.filter((x) => x.isRequest).sort((a, b) => a.start - b.start || a.index - b.index);
  // nextList[p]: the position of the first tools/list at or after p (requests.length when none).
  const nextList = new Array<number>(requests.length + 1).fill(requests.length);
  for (let p = requests.length - 1; p >= 0; p--) nextList[p] = requests[p]!.method === "tools/list" ? p : nextList[p + 1]!;
  const firstOfWindow = new Map<number, { notice: Exchange; from: number }>();
  for (const notice of notices(all)) {
    const from = firstFrom(requests, notice.end, "start");
    const window = firstOfWindow.get(nextList[from]!);
    if (window === undefined || from < window.from) firstOfWindow.set(nextList[from]!, { notice, from });
  }
  const before = listBefore(all);
  const after = new ListsFrom();
  let added = requests.length;
  const judged: { at: number; observation: Observation }[] = [];
  for (const { notice, from } of [...firstOfWindow.values()].sort((a, b) => b.from - a.from)) {
    for (; added > from; added--) {
      const names = listedNames(requests[added - 1]!);
      if (names !== undefined) after.add(names);
    }
    judged.push({ at: notice.index, observation: judge(requests, from, notice, before(notice.end), after) });
  }
  judged.sort((a, b) => a.at - b.at);
  return summarize("tools-relisted-after-change", judged.map((j) => j.observation));
}
