import { retryAfter } from "../classify/index.ts";
import { TIMING, TRANSIENT_HTTP_STATUSES } from "../wire/facts.ts";
import { type Check, type Observation, observe, type RetrySeen, summarize, withRetry } from "./check.ts";
import { type Exchange, gapMs, label, nextByKey, retrySeen, sameCallKey } from "./exchange.ts";

/** Statuses a client may retry after a wait: the classifier's transient set, from the wire facts. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set(TRANSIENT_HTTP_STATUSES);
/** A retry sooner than this after a failure without Retry-After has no backoff at all (the dashboard draws the same). */
export const NO_BACKOFF_MS = TIMING.noBackoffMs;
/** More retries of one call in a row than this is a retry storm. */
export const MAX_RETRIES = 3;
/** Slack for clock granularity and for clients that start waiting when the headers arrive, not the body's end. */
export const RETRY_AFTER_TOLERANCE_MS = 50;

/** What the journal can say, and no more: some clients retry by themselves, others leave it to the application. */
const NO_RETRY_NOTE = "the journal shows no later request for the same call";

export interface Wait {
  afterMs: number;
  /** How the server asked, e.g. "Retry-After: 2 s (2000 ms)". */
  asked: string;
}

/** The wait the failed response asked for: retry-after-ms, or Retry-After as delta-seconds or an HTTP-date. */
export function askedWait(x: Exchange): Wait | undefined {
  // An HTTP-date is measured from the response's Date header, else from the end of the response.
  const wait = retryAfter(x.entry.response.headers, x.end);
  if (wait.afterMs === undefined) return undefined;
  const raw = wait.value ?? "";
  const asked = wait.source === "retry-after-ms"
    ? `retry-after-ms: ${raw}`
    : wait.source === "ratelimit" || wait.source === "ratelimit-reset" || wait.source === "x-ratelimit-reset"
    ? `a reset in ${wait.afterMs} ms (${raw}, no Retry-After)`
    : wait.source === "retry-after-date"
    ? `Retry-After: ${raw} (${wait.afterMs} ms after the response)`
    : `Retry-After: ${raw.trim()} s (${wait.afterMs} ms)`;
  return { afterMs: wait.afterMs, asked };
}

export function isTransientFailure(x: Exchange): boolean {
  return x.isRequest && TRANSIENT_STATUSES.has(x.status);
}

/** A transient failure and the retry that followed it, if any. */
interface Attempt {
  failure: Exchange;
  retry?: Exchange;
  wait?: Wait;
}

function attempts(all: readonly Exchange[]): Attempt[] {
  const nextCall = nextByKey(all, sameCallKey);
  return all.filter(isTransientFailure).map((failure) => {
    const retry = nextCall(failure);
    const wait = askedWait(failure);
    return { failure, ...(retry ? { retry } : {}), ...(wait ? { wait } : {}) };
  });
}

function what(a: Attempt): string {
  return `a ${a.failure.status} to ${label(a.failure)}`;
}

function unmatched(a: Attempt, asked: string): Observation {
  if (a.failure.params === undefined) {
    return observe(
      "warning",
      `The journal cut the request body of ${what(a)} (${a.failure.entry.request.body.bytes} bytes), so its retries cannot be matched.`,
      a.failure.seq,
    );
  }
  return observe("info", `No retry observed after ${what(a)}${asked} (${NO_RETRY_NOTE}).`, a.failure.seq);
}

/** The observation, naming the attempt's retry (if any) and its origin. */
function named(a: Attempt, o: Observation): Observation {
  return withRetry(o, a.retry && retrySeen(a.failure, a.retry));
}

function judgeRetryAfter(a: Attempt & { wait: Wait }): Observation {
  const asked = ` that asked for ${a.wait.asked}`;
  if (!a.retry) return unmatched(a, asked);
  const gap = gapMs(a.failure, a.retry);
  if (gap + RETRY_AFTER_TOLERANCE_MS < a.wait.afterMs) return observe("fail", `Retried ${gap} ms after ${what(a)}${asked}.`, a.failure.seq, a.retry.seq);
  return observe("pass", `Waited ${gap} ms after ${what(a)}${asked}.`, a.failure.seq, a.retry.seq);
}

function judgeBackoff(a: Attempt): Observation {
  const unusable = a.failure.entry.response.headers["retry-after"] !== undefined ? " (its Retry-After was unreadable)" : " without Retry-After";
  if (!a.retry) return unmatched(a, unusable);
  const gap = gapMs(a.failure, a.retry);
  if (gap < NO_BACKOFF_MS) {
    return observe(
      "warning",
      `Retried ${gap} ms after ${what(a)}${unusable}: no backoff (at least ${NO_BACKOFF_MS} ms expected, growing with each attempt).`,
      a.failure.seq,
      a.retry.seq,
    );
  }
  return observe("pass", `Backed off ${gap} ms after ${what(a)}${unusable}.`, a.failure.seq, a.retry.seq);
}

/** Chains of retries of one call: failure, retry, failure, retry, ... */
function judgeChains(list: readonly Attempt[]): Observation[] {
  const byFailure = new Map(list.map((a) => [a.failure, a]));
  const retried = new Set(list.flatMap((a) => (a.retry ? [a.retry] : [])));
  return list
    .filter((a) => !retried.has(a.failure))
    .map((first) => {
      const chain: Exchange[] = [first.failure];
      const seen: RetrySeen[] = [];
      for (let a: Attempt | undefined = first; a?.retry; a = byFailure.get(a.retry)) {
        chain.push(a.retry);
        seen.push(retrySeen(a.failure, a.retry));
      }
      const retries = chain.length - 1;
      const seqs = chain.map((x) => x.seq);
      const statuses = [...new Set(chain.slice(0, -1).map((x) => x.status))].join("/");
      const found = (o: Observation): Observation => ({ ...o, retries: seen });
      if (retries === 0) return observe("info", `No retry observed after ${what(first)} (${NO_RETRY_NOTE}).`, ...seqs);
      const last = chain[chain.length - 1] as Exchange;
      const ending = isTransientFailure(last) ? `the last attempt got ${last.status} too` : `the last attempt got ${last.status}`;
      if (retries > MAX_RETRIES) {
        return found(observe(
          "warning",
          `${label(first.failure)} was retried ${retries} times in a row after ${statuses} (a retry storm: at most ${MAX_RETRIES} expected); ${ending}.`,
          ...seqs,
        ));
      }
      return found(observe(
        "pass",
        `${label(first.failure)} was retried ${retries} time${retries === 1 ? "" : "s"} after ${statuses} (at most ${MAX_RETRIES} expected); ${ending}.`,
        ...seqs,
      ));
    });
}

/**
 * http-retry-after-honoured, http-retry-backoff and http-retry-bounded: how a client retried after 408, 429 and 5xx
 * answers. A retry is a later POST of the same method and params (ignoring _meta).
 */
export function retryChecks(all: readonly Exchange[]): Check[] {
  const list = attempts(all);
  const withWait = list.filter((a): a is Attempt & { wait: Wait } => a.wait !== undefined);
  const withoutWait = list.filter((a) => a.wait === undefined);
  return [
    ...summarize("http-retry-after-honoured", withWait.map((a) => named(a, judgeRetryAfter(a)))),
    ...summarize("http-retry-backoff", withoutWait.map((a) => named(a, judgeBackoff(a)))),
    ...summarize("http-retry-bounded", judgeChains(list)),
  ];
}
