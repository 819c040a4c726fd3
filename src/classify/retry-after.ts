import { Findings, SpecRef } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import { headerMap } from "./headers.ts";
import { parseHttpDate } from "./http-date.ts";
import { type RateLimitSource, readRateLimit } from "./rate-limit.ts";
import type { Finding } from "./verdict.ts";

export interface RetryAfter {
  afterMs?: number;
  source?: "retry-after-ms" | "retry-after-seconds" | "retry-after-date" | RateLimitSource;
  /** The header value the wait was read from, as sent. */
  value?: string;
}

const MAX_MS = Number.MAX_SAFE_INTEGER;

function clampMs(ms: number): number {
  return Math.min(Math.max(0, Math.ceil(ms)), MAX_MS);
}

/**
 * Reads the server's wait hint: `retry-after-ms` (non-standard, preferred when valid), else `Retry-After`
 * as delta-seconds or an HTTP-date measured from the response `Date` header, else from `now`; without Retry-After,
 * the RateLimit header fields (src/classify/rate-limit.ts).
 */
export function readRetryAfter(headers: HeaderMap, now: number | undefined, findings: Findings): RetryAfter {
  const msHeader = headers.get("retry-after-ms");
  if (msHeader !== undefined) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(msHeader)) {
      return { afterMs: clampMs(Number.parseFloat(msHeader)), source: "retry-after-ms", value: msHeader };
    }
    findings.warning("RETRY_AFTER_MS_INVALID", `retry-after-ms ${JSON.stringify(msHeader)} is not a non-negative number of milliseconds; ignored.`);
  }

  const raw = headers.get("retry-after");
  if (raw === undefined) return readRateLimit(headers, () => referenceTime(headers, now, findings), findings) ?? {};
  const value = raw.trim();
  if (/^\d+$/.test(value)) {
    return { afterMs: clampMs(Number.parseInt(value, 10) * 1000), source: "retry-after-seconds", value: raw };
  }

  const reference = referenceTime(headers, now, findings);
  const at = parseHttpDate(value, reference);
  if (at === undefined) {
    findings.warning(
      "RETRY_AFTER_INVALID",
      `Retry-After ${JSON.stringify(raw)} is neither delta-seconds nor an HTTP-date; no wait time can be derived.`,
      SpecRef.retryAfter,
    );
    return {};
  }
  if (reference === undefined) {
    findings.info(
      "RETRY_AFTER_NO_CLOCK",
      "Retry-After is an HTTP-date but the response has no Date header and no options.now was given, so afterMs cannot be computed.",
      SpecRef.retryAfter,
    );
    return {};
  }
  if (at < reference) {
    findings.info("RETRY_AFTER_IN_PAST", `Retry-After ${JSON.stringify(raw)} is already in the past; the client may retry now.`);
  }
  return { afterMs: clampMs(at - reference), source: "retry-after-date", value: raw };
}

/**
 * The wait a response asks for, from its headers (any case, as a plain record): `retry-after-ms`,
 * else `Retry-After` in seconds or as an HTTP-date. An HTTP-date is measured from the response's
 * `Date` header, else from `now` (milliseconds since the epoch). `findings` says why no wait could
 * be read when a header was there but unusable.
 */
export function retryAfter(headers: Record<string, string>, now?: number): RetryAfter & { findings: Finding[] } {
  const findings = new Findings();
  const wait = readRetryAfter(headerMap(headers), now, findings);
  return { ...wait, findings: findings.list };
}

// An HTTP-date is measured from the response's own Date header when there is one (it shares the server's clock).
function referenceTime(headers: HeaderMap, now: number | undefined, findings: Findings): number | undefined {
  const date = headers.get("date");
  if (date !== undefined) {
    const parsed = parseHttpDate(date, now);
    if (parsed !== undefined) return parsed;
    findings.warning("DATE_HEADER_INVALID", `The Date header ${JSON.stringify(date)} is not an HTTP-date; falling back to options.now.`, SpecRef.httpDate);
  }
  return now;
}
