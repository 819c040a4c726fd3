import { show } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, rpcError } from "./exchange.ts";

/** Sends of one refused cursor after its refusal that still count as trying again, not looping (as http-retry-bounded's three). */
export const CURSOR_REPEAT_BOUND = 3;

const cursorOf = (x: Exchange): string | undefined => (x.isRequest && typeof x.params?.cursor === "string" ? x.params.cursor : undefined);
const isList = (x: Exchange): boolean => x.isRequest && x.method !== undefined && x.method.endsWith("/list");

/**
 * The first refusal of each (method, cursor): a list request with that cursor answered with a JSON-RPC error: -32602
 * for an invalid or expired cursor (the spec's SHOULD, pagination.bad_cursor), or any other, such as the -32603 of
 * catalog.pagination's error_after_page_n.
 */
function refusals(all: readonly Exchange[]): Exchange[] {
  const seen = new Set<string>();
  return all.filter((x) => {
    const cursor = cursorOf(x);
    if (cursor === undefined || !isList(x) || errorCode(x) === undefined) return false;
    const key = `${x.method}\u0000${cursor}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function judge(all: readonly Exchange[], refused: Exchange): Observation {
  const cursor = cursorOf(refused) as string;
  const message = rpcError(refused)?.message;
  const what = `the ${errorCode(refused)}${message ? ` "${message}"` : ""} to ${refused.method} with cursor ${show(cursor, 40)} (seq ${refused.seq})`;
  const later = all.filter((x) => x.index > refused.index && x.method === refused.method && x.isRequest);
  const repeats = later.filter((x) => cursorOf(x) === cursor);
  if (repeats.length > CURSOR_REPEAT_BOUND) {
    const seqs = repeats.map((x) => x.seq);
    return observe(
      "fail",
      `After ${what}, the client sent the same refused cursor ${repeats.length} more times (more than ${CURSOR_REPEAT_BOUND}): it loops instead of restarting from the first page or stopping.`,
      refused.seq,
      ...seqs,
    );
  }
  const again = repeats.length === 0 ? "" : ` (it sent the refused cursor ${repeats.length} more time${repeats.length === 1 ? "" : "s"}, within ${CURSOR_REPEAT_BOUND})`;
  const restart = later.find((x) => cursorOf(x) === undefined);
  if (restart) return observe("pass", `After ${what}, the client restarted from the first page (seq ${restart.seq}, no cursor)${again}.`, refused.seq, restart.seq);
  const other = later.find((x) => cursorOf(x) !== cursor);
  if (other) return observe("pass", `After ${what}, the client went on with another cursor (seq ${other.seq})${again}.`, refused.seq, other.seq);
  return observe("pass", `After ${what}, the client stopped paginating${again}.`, refused.seq, ...repeats.map((x) => x.seq));
}

/** cursor-not-looped: a cursor refused with a JSON-RPC error (-32602 above all) is not sent again and again; the client restarts from the first page or stops. */
export function cursorChecks(all: readonly Exchange[]): Check[] {
  return summarize("cursor-not-looped", refusals(all).map((x) => judge(all, x)));
}
