import type { Findings } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";

/** Where a wait was read from when the response had no Retry-After: the RateLimit header fields, in one of three forms. */
export type RateLimitSource = "ratelimit" | "ratelimit-reset" | "x-ratelimit-reset";

export interface RateLimitWait {
  afterMs: number;
  source: RateLimitSource;
  /** The header value(s) the wait was read from, as sent. */
  value: string;
}

/** The IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-11, §4): `RateLimit: "name";r=0;t=30`. */
export const RATELIMIT_DRAFT = "draft-ietf-httpapi-ratelimit-headers-11 §4 (RateLimit field)";
/** An X-RateLimit-Reset this large is a Unix time in seconds (GitHub's form), not a number of seconds to wait. */
const EPOCH_SECONDS = 1_000_000_000;
const MAX_ITEMS = 64;

/** One service limit item's parameters, or undefined when the item is malformed. */
function itemParams(item: string): Map<string, string> | undefined {
  const [name, ...params] = item.split(";").map((part) => part.trim());
  if (name === undefined || !/^("[^"\\]*"|[A-Za-z*][\w:.*/-]*)$/.test(name)) return undefined;
  const out = new Map<string, string>();
  for (const param of params) {
    const match = /^([a-z*][a-z0-9_.*-]*)(?:=(.*))?$/.exec(param);
    if (!match) return undefined;
    out.set(match[1]!, match[2] ?? "?1");
  }
  return out;
}

/** Splits a structured-field list on the commas outside quoted strings. */
function listItems(value: string): string[] {
  const items: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length && items.length < MAX_ITEMS; i++) {
    const c = value[i];
    if (c === "\\" && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) items.push(value.slice(start, i)), (start = i + 1);
  }
  if (items.length < MAX_ITEMS) items.push(value.slice(start));
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

const INTEGER = /^\d{1,15}$/;

/**
 * `RateLimit` (the current draft): the longest effective window `t` among the items whose available quota `r` is 0.
 * A malformed field MUST be ignored (§7); an item with quota left, or no `t`, asks for no wait.
 */
function fromRateLimit(value: string, findings: Findings): number | undefined {
  let longest: number | undefined;
  for (const item of listItems(value)) {
    const params = itemParams(item);
    const r = params?.get("r");
    const t = params?.get("t");
    if (params === undefined || r === undefined || !INTEGER.test(r) || (t !== undefined && !INTEGER.test(t))) {
      findings.info("RATELIMIT_INVALID", `The RateLimit field ${JSON.stringify(value)} is malformed (each item needs an integer r, and t if any, as integers); ignored.`);
      return undefined;
    }
    if (Number(r) === 0 && t !== undefined) longest = Math.max(longest ?? 0, Number(t));
  }
  return longest;
}

/** A reset in delta-seconds, or (for X-RateLimit-Reset only) a Unix time in seconds measured from `reference`. */
function resetMs(raw: string, epochAllowed: boolean, reference: number | undefined): number | undefined {
  const value = raw.trim();
  if (!INTEGER.test(value)) return undefined;
  const n = Number(value);
  if (!epochAllowed || n < EPOCH_SECONDS) return n * 1000;
  return reference === undefined ? undefined : Math.max(0, n * 1000 - reference);
}

/**
 * The wait the RateLimit header fields ask for, when the response has no Retry-After (which MUST take precedence,
 * §7): the current draft's `RateLimit` (`r=0` with `t`), else the older drafts' `RateLimit-Remaining: 0` with
 * `RateLimit-Reset` (delta-seconds), else `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` (delta-seconds, or a
 * Unix time in seconds measured from `reference`). Quota left asks for no wait. `RateLimit-Policy` is informative only.
 */
export function readRateLimit(headers: HeaderMap, reference: () => number | undefined, findings: Findings): RateLimitWait | undefined {
  const field = headers.get("ratelimit");
  if (field !== undefined) {
    const seconds = fromRateLimit(field, findings);
    if (seconds !== undefined) return { afterMs: seconds * 1000, source: "ratelimit", value: field };
  }
  for (const [prefix, source, epochAllowed] of [["ratelimit", "ratelimit-reset", false], ["x-ratelimit", "x-ratelimit-reset", true]] as const) {
    const remaining = headers.get(`${prefix}-remaining`);
    const reset = headers.get(`${prefix}-reset`);
    if (remaining?.trim() !== "0" || reset === undefined) continue;
    const afterMs = resetMs(reset, epochAllowed, epochAllowed ? reference() : undefined);
    if (afterMs !== undefined) return { afterMs, source, value: `${prefix}-remaining: 0, ${prefix}-reset: ${reset}` };
    findings.info("RATELIMIT_RESET_INVALID", `${prefix}-reset ${JSON.stringify(reset)} is not a number of seconds (nor, for X-RateLimit-Reset, a Unix time with a clock to measure it from); ignored.`);
  }
  return undefined;
}
