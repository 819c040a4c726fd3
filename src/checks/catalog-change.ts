import { isRecord } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { answerOf, errorCode, type Exchange, resultOf, targetOf } from "./exchange.ts";
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

/** Whether a call after the notice targets a tool that changed, given the lists before and after it. */
function changed(call: Exchange, before: Set<string> | undefined, after: readonly Set<string>[]): boolean {
  const name = targetOf(call);
  if (name === undefined) return false;
  if (after.some((list) => list.has(name) !== (before?.has(name) ?? list.has(name)))) return true;
  if (before !== undefined && !before.has(name)) return true;
  // Retired: listed before, refused now as an unknown tool.
  return before?.has(name) === true && errorCode(call) === INVALID_PARAMS;
}

function judge(all: readonly Exchange[], notice: Exchange): Observation {
  const toldAt = notice.end;
  const where = `${LIST_CHANGED} (on the stream of seq ${notice.seq})`;
  const earlier = all.filter((x) => x.end <= toldAt && x.method === "tools/list").map(listedNames).filter((s) => s !== undefined);
  const before = earlier.at(-1);
  const later = all.filter((x) => x.isRequest && x.start >= toldAt);
  const after = later.map(listedNames).filter((s) => s !== undefined);
  for (const x of later) {
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

/** tools-relisted-after-change: told that the tool list changed, the client lists the tools again before calling one that changed. */
export function catalogChangeChecks(all: readonly Exchange[]): Check[] {
  return summarize("tools-relisted-after-change", notices(all).map((x) => judge(all, x)));
}
