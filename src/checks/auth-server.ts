import type { EndpointRequest } from "../oauth/records.ts";
import { type Observation, observe } from "./check.ts";

/** More faulted answers in a row from one endpoint than this is a client retrying on and on. */
export const MAX_SERVER_RETRIES = 4;

const when = (at: number) => new Date(at).toISOString().slice(11);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A retry after a 429 may come this much early (the clock's grain, a rounding): a tenth of the wait, at least 50 ms. */
const early = (waitMs: number) => Math.max(50, waitMs / 10);

/**
 * A request the client did not get an answer to: a faulted answer (5xx, 429, a flap's failure), or a slow one it did
 * not wait for (its next request to the endpoint came before the slow answer was sent).
 */
function failed(r: EndpointRequest, next: EndpointRequest | undefined): boolean {
  if (r.fault === undefined) return false;
  return r.fault !== "slow" || (next !== undefined && next.at < r.end);
}

/** What a run of failed requests to one endpoint says about the client, closed by `through` (or the records' end). */
function judgeRun(run: EndpointRequest[], after: EndpointRequest | undefined): Observation[] {
  const [first] = run;
  if (!first) return [];
  const what = `the ${first.endpoint} endpoint`;
  const statuses = run.map((r) => (r.fault === "slow" ? "slow, not waited for" : String(r.status))).join(", ");
  const observations: Observation[] = [];
  // A slow answer not waited for: the same request sent again while it was pending, which for a code or refresh grant
  // spends it twice (and the server then revokes the grant).
  for (const r of run) {
    if (r.fault === "slow") observations.push(observe("warning", `The client sent ${what} a second request while the slow answer to its first (from ${when(r.at)}) was pending: a code or refresh token sent twice is spent twice.`));
  }
  // After a 429, the next request must wait the Retry-After it was given.
  run.forEach((r, i) => {
    const next = run[i + 1] ?? after;
    if (r.retryAfter === undefined || !next) return;
    const gap = next.at - r.end;
    if (gap < r.retryAfter * 1000 - early(r.retryAfter * 1000)) {
      observations.push(observe("fail", `After the 429 from ${what} at ${when(r.end)} (Retry-After: ${r.retryAfter}), the client asked it again ${gap} ms later, before the time the 429 asked for.`));
    }
  });
  const met = `The client met ${plural(run.length, "faulted answer")} in a row from ${what} (${statuses}) from ${when(first.at)}`;
  if (run.length > MAX_SERVER_RETRIES) observations.push(observe("fail", `${met}: it kept retrying past ${MAX_SERVER_RETRIES}.`));
  else if (after) observations.push(observe("pass", `${met}, then got the real answer (HTTP ${after.status}) at ${when(after.at)}.`));
  else observations.push(observe("pass", `${met}, then asked it nothing more.`));
  return observations;
}

/**
 * auth-server-retry-bounded: when the authorization server's own endpoint fails (auth.server_faults), the client
 * retries it a few times at most, waits a 429's Retry-After, and gets through once the faults end. One pass over the
 * recorded requests of each endpoint, looking one request ahead.
 */
export function serverRetryBounded(requests: readonly EndpointRequest[]): Observation[] {
  const byEndpoint = new Map<string, EndpointRequest[]>();
  for (const r of requests) {
    const list = byEndpoint.get(r.endpoint);
    if (list) list.push(r);
    else byEndpoint.set(r.endpoint, [r]);
  }
  const observations: Observation[] = [];
  for (const list of byEndpoint.values()) {
    let run: EndpointRequest[] = [];
    list.forEach((r, i) => {
      const next = list[i + 1];
      if (failed(r, next)) {
        run.push(r);
        return;
      }
      if (r.fault === "slow" && run.length === 0) {
        observations.push(observe("pass", `The client waited for the slow answer of the ${r.endpoint} endpoint (${r.end - r.at} ms, HTTP ${r.status}): it sent no second request while it was pending.`));
      }
      observations.push(...judgeRun(run, r));
      run = [];
    });
    observations.push(...judgeRun(run, undefined));
  }
  return observations;
}
