import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type Exchange, label } from "./exchange.ts";

/**
 * The journal times a request from its arrival to the end of its response on the server's clock, a few ms off at
 * times (a serial client's next call can read as arriving before the last one ended). After the 429, where an overlap
 * fails the client, each request is taken to end this much sooner, so only overlaps longer than it count.
 */
export const OVERLAP_SLACK_MS = 25;

/** One edge of a request's time in flight: its arrival, or the end of its response. */
interface Edge {
  at: number;
  step: 1 | -1;
  /** Sort rank at the same millisecond: ends (0) before arrivals (1) before the ends of requests no longer than the slack (2). */
  rank: 0 | 1 | 2;
  x: Exchange;
}

/** The most requests in flight at once among the arrivals no later than `cut` (or after it), with the one that reached it. */
interface Peak {
  most: number;
  at?: Exchange;
  /** How many arrived in that part. */
  arrivals: number;
}

/**
 * One sweep over the requests' arrivals and ends, sorted once (n log n), each end `trimMs` sooner (never before its
 * arrival: such a request counts at the moment it arrives). An end and an arrival at the same millisecond do not overlap.
 * An arrival in the millisecond of the cut counts as before it: the journal's clock cannot order the two, and a 429
 * answered within the millisecond it came (an answer known whole ends as it is handed on) is no reaction to itself.
 */
function peak(requests: readonly Exchange[], cut: number, after: boolean, trimMs: number): Peak {
  const edges: Edge[] = requests.flatMap((x) => {
    const end = x.end - trimMs;
    const arrival: Edge = { at: x.start, step: 1, rank: 1, x };
    return [arrival, end > x.start ? { at: end, step: -1 as const, rank: 0 as const, x } : { at: x.start, step: -1 as const, rank: 2 as const, x }];
  });
  edges.sort((a, b) => a.at - b.at || a.rank - b.rank);
  const out: Peak = { most: 0, arrivals: 0 };
  let open = 0;
  for (const edge of edges) {
    open += edge.step;
    if (edge.step === -1 || edge.at <= cut === after) continue;
    out.arrivals++;
    if (open > out.most) (out.most = open), (out.at = edge.x);
  }
  return out;
}

/** The 429 the client learned of first: the one whose response ended first. */
function firstLimited(requests: readonly Exchange[]): Exchange | undefined {
  let first: Exchange | undefined;
  for (const x of requests) if (x.status === 429 && (first === undefined || x.end < first.end)) first = x;
  return first;
}

function judge(requests: readonly Exchange[], limited: Exchange): Observation {
  // Before the 429 every overlap counts (a generous baseline); after it only those longer than the slack.
  const before = peak(requests, limited.end, false, 0).most;
  const after = peak(requests, limited.end, true, OVERLAP_SLACK_MS);
  const at = `the first 429 (seq ${limited.seq}, to ${label(limited)})`;
  if (after.arrivals === 0 || after.at === undefined) return observe("info", `The client sent no request after ${at}, so its concurrency after it cannot be judged.`, limited.seq);
  const inFlight = (n: number) => `${n} request${n === 1 ? "" : "s"} in flight at once`;
  if (after.most > before) {
    return observe(
      "fail",
      `After ${at} the client had up to ${inFlight(after.most)} (when seq ${after.at.seq}, ${label(after.at)}, arrived), more than the ${before} before it: rate limiting made it send more at once, not fewer.`,
      limited.seq,
      after.at.seq,
    );
  }
  return observe("pass", `After ${at} the client had at most ${inFlight(after.most)}, no more than the ${before} before it (${after.arrivals} request${after.arrivals === 1 ? "" : "s"} after it).`, limited.seq, after.at.seq);
}

/**
 * inflight-not-amplified: once a request got 429, the client's requests in flight at once did not grow above what
 * they were before it. Every JSON-RPC request the journal holds counts (not notifications, nor a GET or subscriptions/listen stream), whatever
 * its method: a client's own retries and new work alike load a server that said it is overloaded.
 */
export function concurrencyChecks(all: readonly Exchange[]): Check[] {
  // A subscriptions/listen stream stays open for the client's life: a standing stream, not load, like a GET stream.
  const requests = all.filter((x) => x.isRequest && x.method !== "subscriptions/listen");
  const limited = firstLimited(requests);
  return limited === undefined ? [] : summarize("inflight-not-amplified", [judge(requests, limited)]);
}
