import { isRecord } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type CancelFinder, cancelFinder, type Exchange, label } from "./exchange.ts";

/**
 * Long-running calls and progress (issue 25, the "60 s timeout" reports): a call under a `progress` fault runs for a
 * while and reports progress only when it carries `_meta.progressToken`. Every version lets a client reset its timeout
 * on progress but asks it to keep a hard maximum (2026-07-28 basic/patterns/cancellation, and the timeouts text of
 * 2025-11-25 basic/lifecycle). The session declares what it expects in the fault: how long a client should stay while
 * progress arrives (`patienceMs`) and by when it should have given up all the same (`boundMs`).
 */

interface LongCall {
  ms: number;
  patienceMs: number;
  boundMs: number;
}

/** The `progress` fault on a request, as the journal keeps it. */
function longCall(x: Exchange): LongCall | undefined {
  const fault = x.entry.fault;
  if (!x.isRequest || fault?.kind !== "progress") return undefined;
  const { ms, patienceMs, boundMs } = fault.detail;
  return typeof ms === "number" && typeof patienceMs === "number" && typeof boundMs === "number" ? { ms, patienceMs, boundMs } : undefined;
}

/** The request's _meta.progressToken; undefined when it has none or its body could not be read. */
function tokenOf(x: Exchange): string | number | undefined {
  const meta = x.params?._meta;
  const token = isRecord(meta) ? meta.progressToken : undefined;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** How many notifications/progress the stream delivered before it ended (or the client left it). */
function progressDelivered(x: Exchange): number {
  return (x.entry.response.sseEvents ?? []).filter((e) => e.data.includes("notifications/progress") && methodOf(e.data) === "notifications/progress").length;
}

function methodOf(data: string): unknown {
  try {
    const message: unknown = JSON.parse(data);
    return isRecord(message) ? message.method : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When (ms after the request) the client gave the call up before its answer: it closed the stream, or (2025-11-25,
 * 2025-06-18, where a disconnect is no cancellation) sent notifications/cancelled for it on the same MCP session.
 */
function gaveUpAt(cancelOf: CancelFinder, x: Exchange): { at: number; how: string; seqs: number[] } | undefined {
  const closed = x.entry.response.clientClosedAtMs;
  const first = cancelOf(x);
  const cancel = first !== undefined && first.start < x.end ? first : undefined;
  const cancelledAt = cancel ? cancel.start - x.start : undefined;
  if (cancelledAt !== undefined && (closed === undefined || cancelledAt <= closed)) return { at: cancelledAt, how: `sent notifications/cancelled (seq ${cancel!.seq})`, seqs: [x.seq, cancel!.seq] };
  return closed !== undefined ? { at: closed, how: "closed the stream", seqs: [x.seq] } : undefined;
}

const what = (x: Exchange, call: LongCall) => `${label(x)} (seq ${x.seq}, a call of ${call.ms} ms)`;

/** progress-token-sent: a long call asked for progress, so the client can tell a slow tool from a dead one. */
function judgeToken(x: Exchange, call: LongCall): Observation {
  if (x.params === undefined) return observe("info", `The journal cut the body of ${what(x, call)}, so it cannot tell whether it carried a progressToken.`, x.seq);
  const token = tokenOf(x);
  if (token !== undefined) return observe("pass", `${what(x, call)} carried _meta.progressToken ${JSON.stringify(token)}, and ${progressDelivered(x)} notifications/progress reached its stream.`, x.seq);
  return observe(
    "warning",
    `${what(x, call)} carried no _meta.progressToken, so the server could report no progress: the client cannot tell a slow tool from a dead one, and can only wait blindly or give up.`,
    x.seq,
  );
}

/** progress-patience: the client did not leave while progress kept arriving, before the patience the session set. */
function judgePatience(cancelOf: CancelFinder, x: Exchange, call: LongCall): Observation {
  const delivered = progressDelivered(x);
  const left = gaveUpAt(cancelOf, x);
  if (delivered === 0) {
    return observe("info", `No notifications/progress reached ${what(x, call)}${tokenOf(x) === undefined ? " (it asked for none)" : ""}, so its patience with progress cannot be judged.`, x.seq);
  }
  if (left === undefined) return observe("pass", `The client stayed on ${what(x, call)} while ${delivered} notifications/progress arrived, for ${x.entry.durationMs} ms.`, x.seq);
  if (left.at >= call.patienceMs) {
    return observe("pass", `The client ${left.how} on ${what(x, call)} after ${left.at} ms (${delivered} notifications/progress reached its stream), no earlier than the ${call.patienceMs} ms the session expects it to wait.`, ...left.seqs);
  }
  return observe(
    "fail",
    `The client ${left.how} on ${what(x, call)} after ${left.at} ms while progress kept arriving (${delivered} notifications/progress reached its stream), before the ${call.patienceMs} ms the session expects it to wait: a timeout that ignores progress abandons a tool that is working.`,
    ...left.seqs,
  );
}

/** progress-bounded: progress or not, the client still gave up by the bound the session set. */
function judgeBound(cancelOf: CancelFinder, x: Exchange, call: LongCall): Observation {
  const left = gaveUpAt(cancelOf, x);
  if (left !== undefined && left.at < call.boundMs) return observe("pass", `The client ${left.how} on ${what(x, call)} after ${left.at} ms, within the ${call.boundMs} ms bound.`, ...left.seqs);
  const waited = left?.at ?? x.entry.durationMs;
  if (waited >= call.boundMs) {
    return observe(
      "fail",
      `The client was still waiting on ${what(x, call)} after ${waited} ms, past the ${call.boundMs} ms bound: it may reset its timeout on progress, but it SHOULD still enforce a maximum.`,
      x.seq,
    );
  }
  if (x.entry.response.cutByDeadline) return observe("info", `The server's response deadline cut ${what(x, call)} after ${x.entry.durationMs} ms, before the ${call.boundMs} ms bound: the journal cannot tell whether the client enforces one.`, x.seq);
  return observe("info", `${what(x, call)} was answered after ${x.entry.durationMs} ms, before the ${call.boundMs} ms bound: the journal cannot tell whether the client enforces one.`, x.seq);
}

/** progress-token-sent, progress-patience and progress-bounded. */
export function progressChecks(all: readonly Exchange[]): Check[] {
  const calls = all.flatMap((x) => {
    const call = longCall(x);
    return call ? [{ x, call }] : [];
  });
  const cancelOf = cancelFinder(all);
  return [
    ...summarize("progress-token-sent", calls.map(({ x, call }) => judgeToken(x, call))),
    ...summarize("progress-patience", calls.map(({ x, call }) => judgePatience(cancelOf, x, call))),
    ...summarize("progress-bounded", calls.map(({ x, call }) => judgeBound(cancelOf, x, call))),
  ];
}
