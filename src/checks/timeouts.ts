import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type CancelFinder, cancelFinder, type Exchange, label } from "./exchange.ts";

/**
 * Timeouts, judged from the wire. Every version asks a sender to bound its requests (senders SHOULD set per-request
 * timeouts with a hard maximum; 2026-07-28 basic/patterns/cancellation: clients may reset timers on progress but
 * SHOULD enforce a maximum, and on HTTP cancel by closing the stream). The journal shows a client's timeout as the client closing the stream (`response.clientClosedAtMs`);
 * a client that waited until the server's response deadline cut the answer (`response.cutByDeadline`) had none.
 */

/**
 * The faults that hold an answer back: a stall before the headers, a silent stream, a drip, a stream that never answers,
 * an intermediary that waits out its idle window before its error page, or holds the headers or the events back.
 */
export const TIMEOUT_FAULT_KINDS: ReadonlySet<string> = new Set(["delay", "stall_stream", "drip", "hang", "idle_cut", "buffered"]);

/**
 * A client that sat through a held-back answer this long has no bound worth the name: the MCP SDKs' default request
 * timeout is 60 s, so twice that is waiting, not a bound. Below it, a fault that ended by itself tells nothing.
 */
export const UNBOUNDED_WAIT_MS = 120_000;

/** The fault's kind on a request that carried one of the timeout faults. */
function timeoutFault(x: Exchange): { kind: string; ms?: number } | undefined {
  const fault = x.entry.fault;
  if (!x.isRequest || fault === undefined || !TIMEOUT_FAULT_KINDS.has(fault.kind)) return undefined;
  const ms = fault.detail.ms;
  return { kind: fault.kind, ...(typeof ms === "number" ? { ms } : {}) };
}

const FAULT_NAMES: Readonly<Record<string, string>> = { delay: "stall before the headers", stall_stream: "silent stream", drip: "drip", hang: "stream that never answers", idle_cut: "proxy's idle window", buffered: "proxy's buffering" };
const faultName = (f: { kind: string; ms?: number }) => `${f.ms !== undefined ? "a" : "the"} ${FAULT_NAMES[f.kind] ?? f.kind}${f.ms !== undefined ? ` of ${f.ms} ms` : ""}`;

/** timeout-client-bounded: the client ended a held-back exchange itself, not at the server's deadline. */
function judgeBounded(x: Exchange, fault: { kind: string; ms?: number }): Observation {
  const what = `${label(x)} (seq ${x.seq}) under ${faultName(fault)}`;
  const closedAt = x.entry.response.clientClosedAtMs;
  if (closedAt !== undefined) {
    return observe("pass", `The client ended ${what} itself, closing the stream after ${closedAt} ms.`, x.seq);
  }
  if (x.entry.response.cutByDeadline) {
    return observe("fail", `The client waited on ${what} for ${x.entry.durationMs} ms, until the server's response deadline cut it: it has no timeout of its own.`, x.seq);
  }
  if (x.entry.durationMs >= UNBOUNDED_WAIT_MS) {
    return observe("fail", `The client sat through ${what} for ${x.entry.durationMs} ms without giving up: no timeout of ${UNBOUNDED_WAIT_MS / 1000} s or less.`, x.seq);
  }
  return observe(
    "info",
    `The fault on ${what} ended by itself after ${x.entry.durationMs} ms, before the client had to give up: the journal cannot tell whether it has a timeout (under ${UNBOUNDED_WAIT_MS / 1000} s).`,
    x.seq,
  );
}

/** A request the client left before its response: it closed the stream and the journal holds no answer. */
export function abandoned(x: Exchange): boolean {
  return x.isRequest && x.entry.response.clientClosedAtMs !== undefined && x.reply.message === undefined;
}

/**
 * timeout-cancelled: a request the client abandoned was cancelled. 2025-11-25 and 2025-06-18 (basic/utilities/
 * cancellation): a party that cancels sends `notifications/cancelled` with the request's id, and a disconnect
 * SHOULD NOT be read as a cancellation, so closing the stream alone leaves the server working; `initialize` MUST NOT be
 * cancelled (not judged). 2026-07-28 (basic/patterns/cancellation, streamable-http "Cancellation"): on HTTP, closing the
 * response stream is the cancellation, and no notification is expected.
 */
function judgeCancelled(cancelOf: CancelFinder, x: Exchange): Observation | undefined {
  if (x.method === "initialize") return undefined;
  const left = `The client abandoned ${label(x)} (seq ${x.seq}), closing its stream after ${x.entry.response.clientClosedAtMs} ms`;
  if (x.entry.era === "modern") return observe("pass", `${left}: in 2026-07-28 closing the stream is the cancellation.`, x.seq);
  const cancel = cancelOf(x);
  if (cancel) return observe("pass", `${left}, and sent notifications/cancelled for request id ${JSON.stringify(x.id)} (seq ${cancel.seq}).`, x.seq, cancel.seq);
  return observe(
    "warning",
    `${left}, and sent no notifications/cancelled with requestId ${JSON.stringify(x.id)}: in ${x.entry.protocolVersion ?? "2025-11-25"} a disconnect is not a cancellation, so the server may go on working; the client SHOULD send it.`,
    x.seq,
  );
}

/** timeout-client-bounded and timeout-cancelled. */
export function timeoutChecks(all: readonly Exchange[]): Check[] {
  const bounded = all.flatMap((x) => {
    const fault = timeoutFault(x);
    return fault ? [judgeBounded(x, fault)] : [];
  });
  const cancelOf = cancelFinder(all);
  const cancelled = all.filter(abandoned).map((x) => judgeCancelled(cancelOf, x)).filter((o): o is Observation => o !== undefined);
  return [...summarize("timeout-client-bounded", bounded), ...summarize("timeout-cancelled", cancelled)];
}
