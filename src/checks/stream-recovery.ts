import { type Check, type Observation, observe, summarize } from "./check.ts";
import { isRepeatable, toolAnnotations } from "./annotations.ts";
import { type Exchange, firstFrom, gapMs, groupBy, label, nextByKey, sameCallKey, targetOf } from "./exchange.ts";

/**
 * Stream recovery, judged from the wire: what the client sent after a request's SSE stream ended without the response.
 * 2025-11-25 §Resumability: a stream that set event ids may be resumed with GET and Last-Event-ID, after the `retry:`
 * the server sent; a stream without ids cannot be resumed, so only re-sending the request (when it is safe to repeat)
 * gets the answer. The journal sees only requests: a client that sent nothing may be waiting, may have given up, or
 * may have been closed; the messages say what the journal shows, no more.
 */

/** How long a silence after a cut is before it is reported. */
export const SILENCE_MS = 10_000;
/**
 * The journal stamps a stream's end when its journal copy has been read to the end, which on a busy server can be
 * later than the client saw the stream close, so a client that waited exactly `retry` can look early; this much is
 * forgiven (the same slack as Retry-After's in retries.ts).
 */
const CLOCK_SLACK_MS = 50;

/** A request whose SSE stream ended (by itself, not at the response deadline) without its response. */
interface Cut {
  x: Exchange;
  /** Every event id the stream sent, the last one last. */
  eventIds: string[];
  retryMs?: number;
}

function cutOf(x: Exchange): Cut | undefined {
  const events = x.entry.response.sseEvents;
  if (!x.isRequest || x.status !== 200 || events === undefined) return undefined;
  if (x.reply.message !== undefined || x.reply.truncated || x.entry.response.cutByDeadline) return undefined;
  const eventIds = events.flatMap((e) => (e.id ? [e.id] : []));
  const retryMs = events.findLast((e) => e.retry !== undefined)?.retry;
  return { x, eventIds, ...(retryMs !== undefined ? { retryMs } : {}) };
}

const lastEventIdOf = (y: Exchange): string | undefined => (y.httpMethod === "GET" ? y.entry.request.headers["last-event-id"] : undefined);
/** A POST by its method and target; a GET that resumed a call as such (the journal gives it the call's facts). */
const named = (y: Exchange) => (y.httpMethod === "POST" ? label(y) : y.method ? `GET resuming ${label(y)}` : `${y.httpMethod} without a call`);
/** What the client's next exchange after the cut was: its cancellation of the cut call, or something else. */
function movedOn(x: Exchange, other: Exchange): string {
  const cancelled = other.method === "notifications/cancelled" && other.params?.requestId === x.id;
  return cancelled ? `cancelled the call ${gapMs(x, other)} ms later (seq ${other.seq}, notifications/cancelled)` : `went on (seq ${other.seq}, ${named(other)})`;
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The lookups the judges make after a cut, each prepared once over the journal (in arrival order, as timeline() gives
 * it) so that judging every cut costs a binary search per cut, not a walk of the journal: a client decides how many
 * cuts its journal holds.
 */
interface After {
  /** The first exchange after the cut's request (in arrival order) that resumed with one of its event ids. */
  resume(cut: Cut): Exchange | undefined;
  /** The first GET after the cut's request with a Last-Event-ID that no cut stream sent. */
  wrong(cut: Cut): Exchange | undefined;
  /** The first request after the cut's request that is the same call. */
  resent(cut: Cut): Exchange | undefined;
  /** The first exchange after the cut's request that started once its stream had ended. */
  other(cut: Cut): Exchange | undefined;
  /** The first exchange, other than the cut's request, that started once its stream had ended. */
  next(cut: Cut): Exchange | undefined;
}

function after(all: readonly Exchange[], idsOfAllCuts: ReadonlySet<string>): After {
  const byLastEventId = groupBy(all, lastEventIdOf);
  const wrongIds = all.filter((y) => lastEventIdOf(y) !== undefined && !idsOfAllCuts.has(lastEventIdOf(y) as string));
  const nextSameCall = nextByKey(all, sameCallKey);
  const firstAfterIn = (list: readonly Exchange[] | undefined, x: Exchange) => list?.[firstFrom(list, x.index + 1)];
  // Arrival order is ascending start, so the exchanges that started once the stream ended are a suffix of the journal.
  const endedFrom = (x: Exchange) => firstFrom(all, x.end, "start");
  return {
    resume: ({ x, eventIds }) => {
      let first: Exchange | undefined;
      for (const id of new Set(eventIds)) {
        const y = firstAfterIn(byLastEventId.get(id), x);
        if (y !== undefined && (first === undefined || y.index < first.index)) first = y;
      }
      return first;
    },
    wrong: ({ x }) => firstAfterIn(wrongIds, x),
    resent: ({ x }) => nextSameCall(x),
    other: ({ x }) => all[Math.max(endedFrom(x), x.index + 1)],
    next: ({ x }) => {
      const i = endedFrom(x);
      return all[i] === x ? all[i + 1] : all[i];
    },
  };
}

/** stream-resumed: after a cut with event ids, a GET with the stream's last event id. */
function judgeResume(find: After, cut: Cut): Observation | undefined {
  const { x, eventIds } = cut;
  const lastId = eventIds.at(-1) as string;
  const what = `the stream of ${label(x)} (seq ${x.seq}) ended before the response after event id ${JSON.stringify(lastId)}`;
  const resume = find.resume(cut);
  if (resume) {
    const sent = lastEventIdOf(resume) as string;
    const delivered = resume.reply.message !== undefined ? ", and got the response" : "";
    if (sent !== lastId) {
      return observe("warning", `After ${what}, the client resumed with an earlier Last-Event-ID ${JSON.stringify(sent)} (seq ${resume.seq})${delivered}.`, x.seq, resume.seq);
    }
    return observe("pass", `After ${what}, the client resumed with GET and Last-Event-ID ${JSON.stringify(sent)} ${gapMs(x, resume)} ms later (seq ${resume.seq})${delivered}.`, x.seq, resume.seq);
  }
  const wrong = find.wrong(cut);
  if (wrong) {
    return observe("fail", `After ${what}, the client sent GET with Last-Event-ID ${JSON.stringify(lastEventIdOf(wrong))} (seq ${wrong.seq}), an id no cut stream sent.`, x.seq, wrong.seq);
  }
  const resent = find.resent(cut);
  if (resent) {
    return observe(
      "warning",
      `After ${what}, the client re-sent the call by POST ${gapMs(x, resent)} ms later (seq ${resent.seq}) instead of resuming with GET and Last-Event-ID ${JSON.stringify(lastId)}.`,
      x.seq,
      resent.seq,
    );
  }
  const other = find.other(cut);
  if (other) {
    return observe("fail", `After ${what}, the client ${movedOn(x, other)} without resuming the stream or re-sending the call: the journal shows the response was never fetched.`, x.seq, other.seq);
  }
  return undefined;
}

/** stream-retry-honoured: the resuming GET came no sooner than the stream's `retry:`. */
function judgeRetry(find: After, cut: Cut): Observation | undefined {
  const { x, retryMs } = cut;
  if (retryMs === undefined) return undefined;
  const resume = find.resume(cut);
  if (!resume) return undefined;
  const waited = gapMs(x, resume);
  return waited + CLOCK_SLACK_MS >= retryMs
    ? observe("pass", `The client waited ${waited} ms before resuming ${label(x)}; the stream asked for retry: ${retryMs}.`, x.seq, resume.seq)
    : observe("fail", `The client resumed ${label(x)} ${waited} ms after the stream ended, sooner than the stream's retry: ${retryMs}.`, x.seq, resume.seq);
}

/** cut-call-resent: after a cut without event ids, a call that is safe to repeat is sent again. */
function judgeResend(find: After, cut: Cut, repeatable: (x: Exchange) => boolean): Observation | undefined {
  const { x } = cut;
  if (cut.eventIds.length > 0 || !repeatable(x)) return undefined;
  const what = `the stream of ${label(x)} (seq ${x.seq}) ended before the response, with no event id to resume from`;
  const resent = find.resent(cut);
  if (resent) return observe("pass", `After ${what}, the client re-sent the call ${gapMs(x, resent)} ms later (seq ${resent.seq}).`, x.seq, resent.seq);
  const other = find.other(cut);
  if (other) {
    return observe("warning", `After ${what}, the client ${movedOn(x, other)} without re-sending it, although the call is safe to repeat: the journal shows no answer reached it.`, x.seq, other.seq);
  }
  return undefined;
}

/** request-after-cut: whether the journal shows the client sending anything soon after a cut. */
function judgeSilence(find: After, cut: Cut, now: number): Observation | undefined {
  const { x } = cut;
  const next = find.next(cut);
  const what = `the stream of ${label(x)} (seq ${x.seq}) ended before the response`;
  if (!next) {
    if (now - x.end < SILENCE_MS) return undefined;
    return observe("warning", `The journal shows no further request within ${seconds(SILENCE_MS)} after ${what} (${seconds(now - x.end)} so far). The journal sees only the wire: it cannot tell a client still waiting for the response from one that gave up or closed.`, x.seq);
  }
  const gap = gapMs(x, next);
  if (gap > SILENCE_MS) {
    return observe("warning", `The journal shows no further request within ${seconds(SILENCE_MS)} after ${what}: the next one (seq ${next.seq}, ${named(next)}) came ${seconds(gap)} later.`, x.seq, next.seq);
  }
  return observe("pass", `After ${what}, the client's next request (seq ${next.seq}, ${named(next)}) came ${gap} ms later.`, x.seq, next.seq);
}

/**
 * stream-resumed, stream-retry-honoured, cut-call-resent, request-after-cut. `now` is when the checks are read: a
 * silence is reported only once it has lasted SILENCE_MS.
 */
export function streamRecoveryChecks(all: readonly Exchange[], now: number = Date.now()): Check[] {
  const cuts = all.map(cutOf).filter((c): c is Cut => c !== undefined);
  if (cuts.length === 0) return [];
  const ids = new Set(cuts.flatMap((c) => c.eventIds));
  const annotations = toolAnnotations(all);
  const repeatable = (x: Exchange) => x.method !== "tools/call" || isRepeatable(annotations.get(targetOf(x) ?? ""));
  const each = (of: readonly Cut[], judge: (cut: Cut) => Observation | undefined) => of.map(judge).filter((o): o is Observation => o !== undefined);
  const resumable = cuts.filter((c) => c.eventIds.length > 0);
  const find = after(all, ids);
  return [
    ...summarize("stream-resumed", each(resumable, (c) => judgeResume(find, c))),
    ...summarize("stream-retry-honoured", each(resumable, (c) => judgeRetry(find, c))),
    ...summarize("cut-call-resent", each(cuts, (c) => judgeResend(find, c, repeatable))),
    ...summarize("request-after-cut", each(cuts, (c) => judgeSilence(find, c, now))),
  ];
}
