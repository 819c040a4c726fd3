import { show } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, firstFrom, groupBy, rpcError } from "./exchange.ts";

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

/** The later requests judge looks at, grouped once: by method, by (method, cursor), and by method without a cursor. */
interface Later {
  byMethod: Map<string, Exchange[]>;
  byCursor: Map<string, Exchange[]>;
  uncursored: Map<string, Exchange[]>;
}

const cursorKey = (method: string | undefined, cursor: string) => `${method}\u0000${cursor}`;

function laterOf(all: readonly Exchange[]): Later {
  const requests = (key: (x: Exchange) => string | undefined) => groupBy(all, (x) => (x.isRequest && x.method !== undefined ? key(x) : undefined));
  return {
    byMethod: requests((x) => x.method),
    byCursor: requests((x) => {
      const cursor = cursorOf(x);
      return cursor === undefined ? undefined : cursorKey(x.method, cursor);
    }),
    uncursored: requests((x) => (cursorOf(x) === undefined ? x.method : undefined)),
  };
}

/** The exchanges of `group` after `x`, in arrival order. */
function after(group: Map<string, Exchange[]>, key: string | undefined, x: Exchange): Exchange[] {
  const list = key === undefined ? undefined : group.get(key);
  return list ? list.slice(firstFrom(list, x.index + 1)) : [];
}

function judge(later: Later, refused: Exchange): Observation {
  const cursor = cursorOf(refused) as string;
  const message = rpcError(refused)?.message;
  const what = `the ${errorCode(refused)}${message ? ` "${message}"` : ""} to ${refused.method} with cursor ${show(cursor, 40)} (seq ${refused.seq})`;
  // Each (method, cursor) is judged once, so these slices add up to the journal's length at most.
  const repeats = after(later.byCursor, cursorKey(refused.method, cursor), refused);
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
  const fresh = later.uncursored.get(refused.method as string) ?? [];
  const restart = fresh[firstFrom(fresh, refused.index + 1)];
  if (restart) return observe("pass", `After ${what}, the client restarted from the first page (seq ${restart.seq}, no cursor)${again}.`, refused.seq, restart.seq);
  // With no restart, every later request of the method has a cursor, and at most CURSOR_REPEAT_BOUND of them are this one.
  const other = firstOther(later.byMethod.get(refused.method as string) ?? [], refused, cursor);
  if (other) return observe("pass", `After ${what}, the client went on with another cursor (seq ${other.seq})${again}.`, refused.seq, other.seq);
  return observe("pass", `After ${what}, the client stopped paginating${again}.`, refused.seq, ...repeats.map((x) => x.seq));
}

/** The first request in `list` after `refused` whose cursor is not `cursor`. */
function firstOther(list: readonly Exchange[], refused: Exchange, cursor: string): Exchange | undefined {
  for (let i = firstFrom(list, refused.index + 1); i < list.length; i++) if (cursorOf(list[i]!) !== cursor) return list[i];
  return undefined;
}

/** cursor-not-looped: a cursor refused with a JSON-RPC error (-32602 above all) is not sent again and again; the client restarts from the first page or stops. */
export function cursorChecks(all: readonly Exchange[]): Check[] {
  const later = laterOf(all);
  return summarize("cursor-not-looped", refusals(all).map((x) => judge(later, x)));
}
