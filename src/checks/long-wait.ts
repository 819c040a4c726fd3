import { type Check, type Observation, observe, summarize, withRetry } from "./check.ts";
import { type Exchange, gapMs, label, nextByKey, retrySeen, sameCallKey } from "./exchange.ts";
import { askedWait, isTransientFailure, RETRY_AFTER_TOLERANCE_MS, type Wait } from "./retries.ts";

/** A wait this long (600 s) is one a client should surface to its caller, or stop at, rather than sleep through. */
export const LONG_WAIT_MS = 600_000;

/**
 * Something on the wire that says the client stopped: it ended the MCP session of the failure (a DELETE with its
 * Mcp-Session-Id, 2025-11-25 and 2025-06-18), timed by its arrival. A closed GET or subscriptions/listen stream is not one: the server learns of the close only at
 * its next write (a keep-alive, up to 15 s later), so a stream closed before the failure could read as closed after it.
 */
interface Stop {
  at: number;
  x: Exchange;
  how: string;
}

function stopOf(x: Exchange): Stop | undefined {
  return x.httpMethod === "DELETE" ? { at: x.start, x, how: `ended its MCP session (DELETE, seq ${x.seq})` } : undefined;
}

/** The first stop at or after `t`, by binary search over the stops sorted once. */
function firstStopFrom(stops: readonly Stop[], t: number): Stop | undefined {
  let lo = 0;
  let hi = stops.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stops[mid]!.at < t) lo = mid + 1;
    else hi = mid;
  }
  return stops[lo];
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

interface Journal {
  /** The stops of each MCP session, sorted by time. */
  stops: ReadonlyMap<string, readonly Stop[]>;
  /** When the last exchange of the journal ended. */
  end: number;
  /** How many exchanges arrived once a failure's response had ended. */
  laterThan: (x: Exchange) => number;
}

function judge(failure: Exchange, wait: Wait, retry: Exchange | undefined, journal: Journal): Observation {
  const what = `a ${failure.status} to ${label(failure)} (seq ${failure.seq}) that asked for ${wait.asked}`;
  if (failure.params === undefined) return observe("warning", `The journal cut the request body of ${what}, so a resend of it cannot be matched.`, failure.seq);
  if (retry) {
    const gap = gapMs(failure, retry);
    const seen = retrySeen(failure, retry);
    if (gap + RETRY_AFTER_TOLERANCE_MS < wait.afterMs) {
      return withRetry(observe("info", `Resent ${seconds(gap)} after ${what}, before the wait was over: http-retry-after-honoured judges that.`, failure.seq, retry.seq), seen);
    }
    return withRetry(
      observe("fail", `Resent ${label(retry)} (seq ${retry.seq}) ${seconds(gap)} after ${what}: it slept through a wait of ${seconds(wait.afterMs)} instead of surfacing it to its caller or stopping.`, failure.seq, retry.seq),
      seen,
    );
  }
  const sessionStops = failure.sessionId === undefined ? undefined : journal.stops.get(failure.sessionId);
  const stop = sessionStops && firstStopFrom(sessionStops, failure.end);
  if (stop) return observe("pass", `After ${what} the client ${stop.how} ${seconds(stop.at - failure.end)} later and never resent the call: it stopped rather than sleep.`, failure.seq, stop.x.seq);
  const over = failure.end + wait.afterMs;
  if (journal.end >= over) {
    return observe("pass", `After ${what} the journal goes on ${seconds(journal.end - over)} past the wait with no resend of the call: the client did not sleep to resend it.`, failure.seq);
  }
  const others = journal.laterThan(failure);
  const went = others === 0 ? "sent nothing more" : `sent ${others} other request${others === 1 ? "" : "s"}`;
  return observe(
    "info",
    `After ${what} the client ${went} and had not resent the call by the journal's end, ${seconds(journal.end - failure.end)} later: the journal cannot tell a client that surfaced the wait or stopped from one still sleeping on it.`,
    failure.seq,
  );
}

/**
 * long-retry-after-not-slept: a transient failure (408, 429, 5xx) whose Retry-After (or retry-after-ms) asks for
 * LONG_WAIT_MS or more. A resend after the wait fails; a stop on the wire (a DELETE of the MCP session), or a
 * journal that goes on past the wait without a resend, passes; otherwise the journal cannot tell (info).
 */
export function longWaitChecks(all: readonly Exchange[]): Check[] {
  const long = all.flatMap((x) => {
    const wait = isTransientFailure(x) ? askedWait(x) : undefined;
    return wait !== undefined && wait.afterMs >= LONG_WAIT_MS ? [{ x, wait }] : [];
  });
  if (long.length === 0) return [];
  const nextCall = nextByKey(all, sameCallKey);
  const stops = new Map<string, Stop[]>();
  for (const x of all) {
    const stop = stopOf(x);
    if (stop === undefined || x.sessionId === undefined) continue;
    const list = stops.get(x.sessionId);
    if (list) list.push(stop);
    else stops.set(x.sessionId, [stop]);
  }
  for (const list of stops.values()) list.sort((a, b) => a.at - b.at);
  const end = all.reduce((latest, x) => Math.max(latest, x.end), 0);
  // `all` is in arrival order; the exchanges after x that arrived once its response ended, by binary search.
  const starts = all.map((x) => x.start);
  const laterThan = (x: Exchange) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < x.end) lo = mid + 1;
      else hi = mid;
    }
    return starts.length - lo;
  };
  return summarize("long-retry-after-not-slept", long.map(({ x, wait }) => judge(x, wait, nextCall(x), { stops, end, laterThan })));
}
