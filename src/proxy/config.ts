import { z } from "zod";
import { invalidRequest } from "../api-error.ts";
import { isLoopback } from "../base/allowlist.ts";
import { isSecretName, REDACTED } from "../journal/redact.ts";
import { findScenario } from "../../scenarios/index.ts";
import { proxyRefusal } from "./support.ts";

/**
 * Which upstreams a session may name, from FAULTLINE_UPSTREAMS: comma-separated origins (`https://mcp.example.com`,
 * `http://127.0.0.1:3000`), the word `loopback` (any http or https origin on a loopback name, any port), or `none`.
 * Unset or empty: `loopback` when the server is reached on a loopback name, nothing otherwise. Checked when the session
 * is created, before any connection is made, so an upstream outside the list is never contacted.
 */
export const LOOPBACK_ENTRY = "loopback";

/**
 * The upstream's URL as Faultline shows it (the API, the dashboard, the journal, its 502 and 504 messages): each query
 * value whose name holds a credential (`api_key`, `access_token`, ... as the journal's redaction names them) is
 * replaced by the redaction marker. The stored URL, the one called, keeps it; a URL that does not parse is shown as is.
 */
export function shownUpstreamUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  let redacted = false;
  for (const name of new Set(url.searchParams.keys())) {
    if (!isSecretName(name)) continue;
    url.searchParams.set(name, REDACTED);
    redacted = true;
  }
  return redacted ? url.href : raw;
}

/** A record (or view) as it is shown: its upstream's URL through shownUpstreamUrl. */
export function withShownUpstream<T extends { upstream?: { url: string; forwardAuthorization: boolean } }>(record: T): T {
  return record.upstream ? { ...record, upstream: { ...record.upstream, url: shownUpstreamUrl(record.upstream.url) } } : record;
}

/** A session's upstream, as stored with its record. */
export const UpstreamSchema = z.object({
  url: z.string(),
  forwardAuthorization: z.boolean(),
});
export type UpstreamConfig = z.infer<typeof UpstreamSchema>;

/** The entries of the list, lower-cased; the default applies when the variable is unset or blank. */
export function allowedUpstreams(value: string | undefined, servedOn: URL): string[] {
  const entries = (value ?? "").split(",").map((s) => s.trim().toLowerCase().replace(/\/$/, "")).filter(Boolean);
  if (entries.length === 0) return isLoopback(servedOn.hostname) ? [LOOPBACK_ENTRY] : [];
  return entries.filter((e) => e !== "none");
}

/** Why `raw` may not be an upstream, or undefined when it may. */
export function refusedUpstream(raw: string, allowed: readonly string[]): { rule: string; message: string } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { rule: "url", message: "must be an absolute http or https URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { rule: "url", message: "must be an absolute http or https URL" };
  if (url.username || url.password) return { rule: "no_credentials", message: "must not carry a user name or password; send credentials with forwardAuthorization" };
  if (url.hash) return { rule: "no_fragment", message: "must not carry a #fragment" };
  if (allowed.includes(url.origin.toLowerCase()) || (allowed.includes(LOOPBACK_ENTRY) && isLoopback(url.hostname))) return undefined;
  const list = allowed.length > 0 ? allowed.join(", ") : "empty";
  return { rule: "upstream_not_allowed", message: `origin ${url.origin} is not in FAULTLINE_UPSTREAMS (${list})` };
}

/**
 * The upstream of a create request, checked against the list: a 400 naming the field and the rule otherwise.
 * `forwardAuthorization` without an upstream is refused too, as a setting that would do nothing.
 */
export function upstreamOf(body: { upstream?: string; forwardAuthorization?: boolean }, env: { FAULTLINE_UPSTREAMS?: string }, servedOn: URL): UpstreamConfig | undefined {
  if (body.upstream === undefined) {
    if (body.forwardAuthorization !== undefined) {
      throw invalidRequest([{ path: "forwardAuthorization", rule: "needs_upstream", message: "applies only to a session with an upstream" }]);
    }
    return undefined;
  }
  const refused = refusedUpstream(body.upstream, allowedUpstreams(env.FAULTLINE_UPSTREAMS, servedOn));
  if (refused) throw invalidRequest([{ path: "upstream", ...refused }]);
  return { url: new URL(body.upstream).href, forwardAuthorization: body.forwardAuthorization ?? false };
}

/** A session with an upstream runs only a scenario that can run in front of one: a 400 saying why otherwise. */
export function proxiedScenario(upstream: UpstreamConfig | undefined, scenarioId: string): UpstreamConfig | undefined {
  const scenario = upstream ? findScenario(scenarioId) : undefined;
  const refusal = scenario ? proxyRefusal(scenario) : undefined;
  if (refusal) throw invalidRequest([{ path: "scenario", rule: "unsupported_in_proxy_mode", message: refusal }]);
  return upstream;
}
