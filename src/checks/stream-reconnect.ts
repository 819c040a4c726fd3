import { type Check, type Observation, observe, summarize } from "./check.ts";
import type { Exchange } from "./exchange.ts";
import { clientKey } from "../journal/retry-origin.ts";
import { NO_BACKOFF_MS } from "./retries.ts";

/**
 * Reconnects of the standalone GET stream (2025-11-25 transports, "Listening for Messages from the Server" and
 * "Resumability and Redelivery") and of subscriptions/listen (2026-07-28, where a close without the listen's result
 * "indicates an unexpected disconnect, which the client MAY treat as a trigger to reconnect"), judged from the wire in
 * one pass over each client's streams: the client resumes with GET and Last-Event-ID, the latest event id it was sent,
 * after waiting the stream's `retry:` (a MUST in 2025-11-25); refused reconnects (409, 5xx) end, and the waits
 * between them do not shrink. 2026-07-28 has no event ids, so there only the bound and the backoff apply. The journal has what Faultline sent on
 * each stream, not what the client read, and a client that sent nothing more may be waiting or may have closed.
 */

/** Refused reconnects in a row before stream-reconnect-bounded fails. */
export const MAX_REFUSED_RECONNECTS = 5;
/** Reconnects in a row that met an empty stream (no event at all) before stream-reconnect-bounded warns. */
export const MAX_EMPTY_RECONNECTS = 10;
/** A stream's end is stamped when its journal copy was read to the end; this much early is forgiven (as in stream-recovery.ts). */
const CLOCK_SLACK_MS = 50;

/** A GET that resumes no call (the standalone stream, or a reconnect of it), or a 2026-07-28 subscriptions/listen. */
const standalone = (x: Exchange) => (x.httpMethod === "GET" && x.method === undefined) || (x.httpMethod === "POST" && x.method === "subscriptions/listen");
/** Whose stream it is: a legacy MCP session's, or (2026-07-28 has none) the clientInfo's. */
const clientOf = (x: Exchange) => (x.sessionId !== undefined ? `session:${x.sessionId}` : `client:${x.entry.client ?? clientKey(x.entry.clientInfo) ?? ""}`);
const lastEventIdOf = (x: Exchange) => x.entry.request.headers["last-event-id"];
/** Refused: an error status other than 405 (which says no GET stream is offered at all). */
const refused = (x: Exchange) => x.status >= 400 && x.status !== 405;
/** Served, but nothing in it: no event with data or an id. */
const empty = (x: Exchange) => x.status === 200 && (x.entry.response.sseEvents ?? []).every((e) => e.data === "" && e.id === undefined);

/** What one client's GETs taught it so far, carried through its GETs in order. */
interface Walk {
  /** The latest event id its streams sent ("" once an empty `id:` reset it); undefined before any. */
  latestId?: string;
  /** Every id its streams sent. */
  sent: Set<string>;
  /** The latest `retry:` its streams sent. */
  retryMs?: number;
  /** It sent a Last-Event-ID on an earlier reconnect. */
  resumed: boolean;
  /** The fruitless GETs in a row (refused or empty), the refused among them, and the last wait between them. */
  run: Exchange[];
  refusedInRun: number;
  lastGapInRun?: number;
}

const quoted = (id: string) => JSON.stringify(id);

/** stream-resumed-latest-id: the reconnect's Last-Event-ID is the latest id the earlier streams sent. */
function judgeLatestId(walk: Walk, prev: Exchange, x: Exchange): Observation | undefined {
  const latest = walk.latestId;
  if (latest === undefined) return undefined;
  const sent = lastEventIdOf(x);
  const what = `GET (seq ${x.seq}) after the stream of seq ${prev.seq}`;
  if (latest === "") {
    if (sent === undefined || sent === "") return observe("pass", `The latest event reset the event id with an empty id: line, and the ${what} sent no Last-Event-ID.`, prev.seq, x.seq);
    return observe("warning", `The latest event reset the event id with an empty id: line (the SSE standard then sends no Last-Event-ID), but the ${what} sent Last-Event-ID ${quoted(sent)}.`, prev.seq, x.seq);
  }
  if (sent === latest) return observe("pass", `The ${what} resumed with Last-Event-ID ${quoted(sent)}, the latest event id it was sent.`, prev.seq, x.seq);
  if (sent === undefined) {
    const status = walk.resumed ? "fail" : "warning";
    const earlier = walk.resumed ? ", although it had resumed before: the events in between are lost" : ": it starts afresh instead of resuming";
    return observe(status, `The ${what} sent no Last-Event-ID, though the latest event id it was sent is ${quoted(latest)}${earlier}.`, prev.seq, x.seq);
  }
  const which = walk.sent.has(sent) ? "an earlier event id" : "an id no stream sent";
  return observe("fail", `The ${what} resumed with Last-Event-ID ${quoted(sent)}, ${which}; the latest it was sent is ${quoted(latest)}.`, prev.seq, x.seq);
}

/** stream-reconnect-backoff: the wait honours the latest `retry:`, or (without one) is no tight loop and does not shrink after a refusal. */
function judgeBackoff(walk: Walk, prev: Exchange, x: Exchange): Observation | undefined {
  const gap = x.start - prev.end;
  // Opened while the previous stream was still open: a second stream, not a reconnect.
  if (gap < 0) return undefined;
  const after = `${gap} ms after the ${refused(prev) ? `${prev.status} to` : "end of"} ${prev.httpMethod === "GET" ? "GET" : "subscriptions/listen"} seq ${prev.seq}`;
  if (walk.retryMs !== undefined) {
    return gap + CLOCK_SLACK_MS >= walk.retryMs
      ? observe("pass", `The client reconnected ${after}; the stream asked for retry: ${walk.retryMs}.`, prev.seq, x.seq)
      : observe("fail", `The client reconnected ${after}, sooner than the stream's retry: ${walk.retryMs}.`, prev.seq, x.seq);
  }
  if (gap < NO_BACKOFF_MS) return observe("fail", `The client reconnected ${after}: no backoff (at least ${NO_BACKOFF_MS} ms expected, growing after each refusal).`, prev.seq, x.seq);
  const before = walk.lastGapInRun;
  if (walk.run.length > 1 && before !== undefined && gap + CLOCK_SLACK_MS < before) {
    return observe("fail", `The client reconnected ${after}, sooner than the ${before} ms it waited before: the waits between refused reconnects shrank.`, prev.seq, x.seq);
  }
  return observe("pass", `The client reconnected ${after}${before !== undefined && walk.run.length > 1 ? ` (the wait before: ${before} ms)` : ""}.`, prev.seq, x.seq);
}

/** stream-reconnect-bounded: a run of fruitless reconnects, judged once it ended. */
function judgeRun(walk: Walk): Observation | undefined {
  const run = walk.run;
  if (run.length === 0) return undefined;
  const seqs = run.map((x) => x.seq);
  const span = run.length === 1 ? `seq ${seqs[0]}` : `seq ${seqs[0]} to ${seqs.at(-1)}`;
  const what = `${run.length} reconnect${run.length === 1 ? "" : "s"} in a row (${span}) got nothing: ${walk.refusedInRun} refused, ${run.length - walk.refusedInRun} empty`;
  if (walk.refusedInRun > MAX_REFUSED_RECONNECTS) return observe("fail", `${what}; at most ${MAX_REFUSED_RECONNECTS} refused reconnects expected before the client stops.`, ...seqs);
  if (run.length > MAX_EMPTY_RECONNECTS) return observe("warning", `${what}; the client kept reconnecting to streams with no event (at most ${MAX_EMPTY_RECONNECTS} expected).`, ...seqs);
  return observe("pass", `${what}, then the client stopped or got a stream with events.`, ...seqs);
}

/** Walks one client's standalone GETs in order, adding each observation to its check. */
function walkGets(gets: readonly Exchange[], out: Record<"latest" | "backoff" | "bounded", Observation[]>): void {
  const walk: Walk = { sent: new Set(), resumed: false, run: [], refusedInRun: 0 };
  const push = (list: Observation[], o: Observation | undefined) => void (o && list.push(o));
  gets.forEach((x, i) => {
    const prev = gets[i - 1];
    // The first GET is no reconnect: only reconnects make a run.
    const fruitless = prev !== undefined && (refused(x) || empty(x));
    if (prev) {
      push(out.latest, judgeLatestId(walk, prev, x));
      push(out.backoff, judgeBackoff(walk, prev, x));
      if (lastEventIdOf(x) !== undefined) walk.resumed = true;
    }
    if (fruitless) {
      if (walk.run.length > 0) walk.lastGapInRun = x.start - prev.end;
      walk.run.push(x);
      if (refused(x)) walk.refusedInRun++;
    } else {
      push(out.bounded, judgeRun(walk));
      Object.assign(walk, { run: [], refusedInRun: 0, lastGapInRun: undefined });
    }
    for (const e of x.entry.response.sseEvents ?? []) {
      if (e.id !== undefined) (walk.latestId = e.id), walk.sent.add(e.id);
      if (e.retry !== undefined) walk.retryMs = e.retry;
    }
  });
  push(out.bounded, judgeRun(walk));
}

/**
 * stream-reconnect-bounded, stream-reconnect-backoff, stream-resumed-latest-id: one pass groups the standalone GETs by
 * MCP session (a client's), and only a client whose GETs met a fault is judged (the trigger).
 */
export function streamReconnectChecks(all: readonly Exchange[]): Check[] {
  const byClient = new Map<string, Exchange[]>();
  const faulted = new Set<string>();
  for (const x of all) {
    if (!standalone(x)) continue;
    const key = clientOf(x);
    const list = byClient.get(key) ?? [];
    if (list.length === 0) byClient.set(key, list);
    list.push(x);
    if (x.entry.fault !== undefined) faulted.add(key);
  }
  const out = { latest: [] as Observation[], backoff: [] as Observation[], bounded: [] as Observation[] };
  for (const [key, gets] of byClient) if (faulted.has(key)) walkGets(gets, out);
  return [
    ...summarize("stream-reconnect-bounded", out.bounded),
    ...summarize("stream-reconnect-backoff", out.backoff),
    ...summarize("stream-resumed-latest-id", out.latest),
  ];
}
