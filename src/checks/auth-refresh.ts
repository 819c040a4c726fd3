import type { GrantEvent } from "../oauth/records.ts";
import { type Observation, observe } from "./check.ts";

const when = (g: GrantEvent) => new Date(g.at).toISOString().slice(11);
const outcomeOf = (g: GrantEvent) => (g.outcome === "issued" ? "issued" : `refused: ${g.outcome}`);

/**
 * auth-one-refresh-per-token: no refresh presents a refresh token that an earlier refresh already spent. Refresh tokens
 * of public clients rotate (OAuth 2.1 §4.3.1), so the second use is a reuse: refused with invalid_grant, and the
 * server revokes the whole grant. A client whose parallel calls all meet the expiry must refresh once and share the
 * new token. One pass over the grants, keyed by the presented token's HMAC (never shown).
 */
export function oneRefreshPerToken(grants: readonly GrantEvent[]): Observation[] {
  // Per refresh token spent (by its HMAC): the refresh that spent it, then every later one that presented it again.
  const spent = new Map<string, GrantEvent[]>();
  let refreshes = 0;
  for (const g of grants) {
    if (g.grantType !== "refresh_token" || g.presented === undefined) continue;
    refreshes++;
    const uses = spent.get(g.presented);
    if (uses) uses.push(g);
    else if (g.outcome === "issued") spent.set(g.presented, [g]);
  }
  const observations = [...spent.values()].filter((uses) => uses.length > 1).map((uses) => {
    const [first, ...again] = uses as [GrantEvent, ...GrantEvent[]];
    const later = again.map((g) => `at ${when(g)} (${outcomeOf(g)})`).join(", ");
    return observe("fail", `${uses.length} refreshes presented the same refresh token: at ${when(first)} (${outcomeOf(first)}), then ${later}. Refresh tokens rotate (OAuth 2.1 §4.3.1), so a second use is a reuse and the server revokes every token of the grant: calls that meet an expiry together must share one refresh.`);
  });
  if (refreshes > 0) {
    observations.push(observe("pass", `${refreshes === 1 ? "The one refresh" : `Each of the ${refreshes} refreshes`} presented a refresh token no earlier refresh had spent.`));
  }
  return observations;
}

/** More refreshes refused with invalid_grant in a row than this, with no other grant between, is a loop. */
export const MAX_REFUSED_REFRESHES = 4;

/**
 * auth-reauthorized-after-revoke: after a refresh refused with invalid_grant (the refresh token is invalid, expired,
 * revoked or spent: RFC 6749 §5.2), the client's next grant other than another such refusal is an authorization_code
 * grant, a whole new authorization; refreshing on and on, or asking for nothing more, fails. One pass over the grants.
 */
export function reauthorizedAfterRevoke(grants: readonly GrantEvent[]): Observation[] {
  const observations: Observation[] = [];
  let run: GrantEvent[] = [];
  const close = (next: GrantEvent | undefined) => {
    const [first] = run;
    if (!first) return;
    const what = `the refresh refused with invalid_grant at ${when(first)}${run.length > 1 ? ` (and ${run.length - 1} more refused after it)` : ""}`;
    if (run.length > MAX_REFUSED_REFRESHES) {
      observations.push(observe("fail", `${run.length} refreshes in a row were refused with invalid_grant, from ${when(first)} to ${when(run.at(-1)!)}: the client kept refreshing with a refresh token that is dead instead of authorizing again.`));
    } else if (next?.grantType === "authorization_code") {
      observations.push(observe("pass", `After ${what}, the client authorized again: an authorization_code grant at ${when(next)} (${outcomeOf(next)}).`));
    } else if (next) {
      observations.push(observe("pass", `After ${what}, the client's next grant was a ${next.grantType} grant at ${when(next)} (${outcomeOf(next)}): it held another refresh token.`));
    } else {
      observations.push(observe("fail", `After ${what}, the client asked the token endpoint for nothing more: an invalid_grant refusal of a refresh needs a whole new authorization (RFC 6749 §5.2), and it ran none.`));
    }
    run = [];
  };
  for (const g of grants) {
    if (g.grantType === "refresh_token" && g.outcome === "invalid_grant") run.push(g);
    else close(g);
  }
  close(undefined);
  return observations;
}
