import { parseChallenges } from "../classify/index.ts";
import type { EndpointRequest, GrantEvent } from "../oauth/records.ts";
import { serverRetryBounded } from "./auth-server.ts";
import { oneRefreshPerToken, reauthorizedAfterRevoke } from "./auth-refresh.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type Exchange, label } from "./exchange.ts";

/** More refusals in a row than this, with no success between them, is a loop ("no more than a few times"). */
export const MAX_AUTH_ATTEMPTS = 4;

/** The Bearer challenge of a 401 or 403, read from the journalled WWW-Authenticate header. */
function challengeOf(x: Exchange): { error?: string; scope?: string } | undefined {
  if (x.status !== 401 && x.status !== 403) return undefined;
  const header = x.entry.response.headers["www-authenticate"];
  if (header === undefined) return undefined;
  const bearer = parseChallenges(header).find((c) => c.scheme.toLowerCase() === "bearer");
  return bearer ? { ...(bearer.error ? { error: bearer.error } : {}), ...(bearer.scope ? { scope: bearer.scope } : {}) } : undefined;
}

/** The first token-endpoint answer after a refusal, before the next request that succeeded with the new token. */
function grantAfter(x: Exchange, grants: readonly GrantEvent[]): GrantEvent | undefined {
  return grants.find((g) => g.at >= x.end && g.outcome === "issued") ?? grants.find((g) => g.at >= x.end);
}

const seen = (g: GrantEvent) => `the token endpoint then answered a ${g.grantType} request (${g.outcome === "issued" ? `issued, scope "${g.scope}"` : `refused: ${g.outcome}`})`;

/** auth-refreshed-on-expiry: after a 401 invalid_token, the client used its refresh token rather than the whole flow. */
function refreshedOnExpiry(all: readonly Exchange[], grants: readonly GrantEvent[]): Observation[] {
  const expired = all.filter((x) => x.status === 401 && challengeOf(x)?.error === "invalid_token");
  // One episode per burst: refusals before the client's next grant are the same expiry seen by parallel requests.
  const episodes = expired.filter((x, i) => i === 0 || grantAfter(expired[i - 1]!, grants) !== grantAfter(x, grants));
  return episodes.map((x) => {
    const what = `the 401 invalid_token to ${label(x)}`;
    // Only a token this server issued can have expired and be refreshed: a token it never issued (a static one)
    // is refused as unknown, and there is no refresh token to judge.
    if (!grants.some((g) => g.outcome === "issued" && g.at <= x.start)) {
      return observe("info", `Not judged: ${what} refused a token this session's authorization server never issued (its token endpoint issued none before the 401), so there was no token to refresh.`, x.seq);
    }
    const g = grantAfter(x, grants);
    if (!g) return observe("fail", `After ${what}, the client asked the token endpoint for nothing: it neither refreshed nor authorized again.`, x.seq);
    if (g.grantType === "refresh_token" && g.outcome === "issued") return observe("pass", `After ${what}, ${seen(g)}: the client refreshed.`, x.seq);
    if (g.grantType === "authorization_code" && grants.some((r) => r.at >= x.end && r.at <= g.at && r.grantType === "refresh_token" && r.outcome === "invalid_grant")) {
      // It did refresh first; the server refused the refresh token (revoked, expired), so a new authorization was the way on.
      return observe("pass", `After ${what}, the client refreshed and the token endpoint refused the refresh token (invalid_grant); ${seen(g)}: it authorized again.`, x.seq);
    }
    if (g.grantType === "authorization_code") return observe("warning", `After ${what}, ${seen(g)}: the client ran the whole authorization flow again instead of using its refresh token.`, x.seq);
    return observe("fail", `After ${what}, ${seen(g)}.`, x.seq);
  });
}

/** auth-step-up-scope: after a 403 insufficient_scope, the client authorized again asking for the scope named. */
function steppedUp(all: readonly Exchange[], grants: readonly GrantEvent[]): Observation[] {
  return all.flatMap((x) => {
    const challenge = challengeOf(x);
    if (x.status !== 403 || challenge?.error !== "insufficient_scope") return [];
    const named = challenge.scope?.split(" ").filter(Boolean) ?? [];
    const what = `the 403 insufficient_scope (scope "${named.join(" ")}") to ${label(x)}`;
    const g = grantAfter(x, grants);
    if (!g) return [observe("fail", `After ${what}, the client asked the token endpoint for nothing: it did not step up.`, x.seq)];
    const got = g.scope.split(" ");
    const missing = named.filter((s) => !got.includes(s));
    if (g.outcome === "issued" && missing.length === 0) return [observe("pass", `After ${what}, ${seen(g)}: the client stepped up to the scope named.`, x.seq)];
    if (g.grantType === "refresh_token") return [observe("fail", `After ${what}, ${seen(g)}: a refresh cannot add scope, so the client never asked for ${missing.join(" ") || "the scope named"}.`, x.seq)];
    return [observe("fail", `After ${what}, ${seen(g)}, without ${missing.join(" ")}.`, x.seq)];
  });
}

/** auth-bounded-attempts: auth refusals in a row (no success between) stay within a few. */
function bounded(all: readonly Exchange[]): Observation[] {
  const observations: Observation[] = [];
  let run: Exchange[] = [];
  // `through` is the first exchange after the run that got past auth (status below 400); none when the journal ends first.
  const close = (through: Exchange | undefined) => {
    if (run.length === 0) return;
    const seqs = run.map((x) => x.seq);
    const met = `The client met ${run.length} auth refusal${run.length === 1 ? "" : "s"} (401/403) in a row`;
    if (run.length > MAX_AUTH_ATTEMPTS) {
      observations.push(observe("fail", `${met} without a success between them: it kept trying past ${MAX_AUTH_ATTEMPTS}.`, ...seqs));
    } else if (through) {
      observations.push(observe("pass", `${met}, then got through: ${label(through)} (seq ${through.seq}) got HTTP ${through.status}.`, ...seqs, through.seq));
    } else {
      const last = all.at(-1);
      // Only what the journal shows: nothing after the last refusal, or later exchanges none of which was answered below 400.
      const ending = last === run.at(-1) ? "then sent nothing more" : `then no later exchange succeeded (the last, seq ${last?.seq}, got HTTP ${last?.status})`;
      observations.push(observe("pass", `${met}, ${ending}.`, ...seqs));
    }
    run = [];
  };
  for (const x of all) {
    if (challengeOf(x)) run.push(x);
    else if (x.status < 400) close(x);
  }
  close(undefined);
  return observations;
}

/**
 * The auth family (`grants` undefined when the session runs no authorization server), read from the MCP exchanges and the token endpoint's answers (which grant, which scope): whether
 * the client refreshed on expiry, stepped up to the scope a 403 named, and stopped after a few refusals.
 */
export function authChecks(all: readonly Exchange[], grants: readonly GrantEvent[] | undefined, requests: readonly EndpointRequest[] = []): Check[] {
  return [
    // Without an authorization server (authorizationServer "none") there is no grant to read: only the loop is judged.
    ...(grants ? summarize("auth-refreshed-on-expiry", refreshedOnExpiry(all, grants)) : []),
    ...(grants ? summarize("auth-step-up-scope", steppedUp(all, grants)) : []),
    ...(grants ? summarize("auth-one-refresh-per-token", oneRefreshPerToken(grants)) : []),
    ...(grants ? summarize("auth-reauthorized-after-revoke", reauthorizedAfterRevoke(grants)) : []),
    // Requests to an endpoint auth.server_faults faulted (none for any other session).
    ...summarize("auth-server-retry-bounded", serverRetryBounded(requests)),
    ...summarize("auth-bounded-attempts", bounded(all)),
  ];
}
