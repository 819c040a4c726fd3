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
