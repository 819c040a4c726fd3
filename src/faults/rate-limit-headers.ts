import type { RateLimitFields } from "./schema.ts";

/**
 * The RateLimit header fields of a spent quota, in the form asked for. "ietf" follows the current httpapi draft
 * (draft-ietf-httpapi-ratelimit-headers-11 §3, §4): `RateLimit-Policy: "default";q=100;w=60` and
 * `RateLimit: "default";r=0;t=30`. "draft" is its older versions' `RateLimit-Limit`, `-Remaining` and `-Reset`
 * (delta-seconds); "x" is the `X-RateLimit-*` trio with the reset as a Unix time in seconds, as GitHub sends it.
 */
export function rateLimitHeaders(fields: RateLimitFields | undefined, nowMs: number): Record<string, string> {
  if (fields === undefined) return {};
  const { form, policy, quota, windowSeconds, resetSeconds } = fields;
  switch (form) {
    case "ietf":
      return { "ratelimit-policy": `"${policy}";q=${quota};w=${windowSeconds}`, ratelimit: `"${policy}";r=0;t=${resetSeconds}` };
    case "draft":
      return { "ratelimit-limit": String(quota), "ratelimit-remaining": "0", "ratelimit-reset": String(resetSeconds) };
    case "x":
      // Rounded up, so the reset never comes before the wait.
      return { "x-ratelimit-limit": String(quota), "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(nowMs / 1000) + resetSeconds) };
  }
}
