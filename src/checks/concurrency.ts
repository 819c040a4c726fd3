import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type Exchange, label } from "./exchange.ts";

/** One edge of a request's time in flight: its arrival (+1) or the end of its response (-1). */
interface Edge {
  at: number;
  step: 1 | -1;
  x: Exchange;
}

/** The most requests in flight at once before `cut` and from `cut` on, with the request that reached each peak. */
interface Peaks {
  before: number;
  after: number;
  afterAt?: Exchange;
  /** Requests that arrived from `cut` on. */
  later: number;
}

/**
 * One sweep over the requests' arrivals and ends, sorted once (n log n). An end and an arrival at the same
 * millisecond do not overlap, so ends go first: a client that sends its next call as the last one ends is not counted twice.
 */
function peaks(requests: readonly Exchange[], cut: number): Peaks {
  const edges: Edge[] = requests.flatMap((x) => [{ at: x.start, step: 1 as const, x }, { at: x.end, step: -1 as const, x }]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  const out: Peaks = { before: 0, after: 0, later: 0 };
  let open = 0;
  for (const edge of edges) {
    open += edge.step;
    if (edge.step === -1) continue;
    if (edge.at < cut) {
      out.before = Math.max(out.before, open);
      continue;
    }
    out.later++;
    if (open > out.after) (out.after = open), (out.afterAt = edge.x);
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
  const p = peaks(requests, limited.end);
  const at = `the first 429 (seq ${limited.seq}, to ${label(limited)})`;
  if (p.later === 0 || p.afterAt === undefined) return observe("info", `The client sent no request after ${at}, so its concurrency after it cannot be judged.`, limited.seq);
  const inFlight = (n: number) => `${n} request${n === 1 ? "" : "s"} in flight at once`;
  if (p.after > p.before) {
    return observe(
      "fail",
      `After ${at} the client had up to ${inFlight(p.after)} (when seq ${p.afterAt.seq}, ${label(p.afterAt)}, arrived), more than the ${p.before} before it: rate limiting made it send more at once, not fewer.`,
      limited.seq,
      p.afterAt.seq,
    );
  }
  return observe("pass", `After ${at} the client had at most ${inFlight(p.after)}, no more than the ${p.before} before it (${p.later} request${p.later === 1 ? "" : "s"} after it).`, limited.seq, p.afterAt.seq);
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
