import { cases, NOW } from "../../../helpers/decide.ts";

export default cases("ratelimit.retry_after_date", [
  {
    name: "a selected request gets 429 with an HTTP-date `seconds` ahead of now",
    params: { seconds: 30 },
    steps: [{ fault: { kind: "rate_limited", retryAfter: "Mon, 30 Nov 2026 12:00:30 GMT", body: "text" } }, { fault: undefined }],
  },
  {
    name: "the date is rounded up to the next whole second, so it never falls short",
    params: { seconds: 2 },
    steps: [{ now: NOW + 1, fault: { kind: "rate_limited", retryAfter: "Mon, 30 Nov 2026 12:00:03 GMT", body: "text" } }],
  },
  {
    name: "rateLimit adds the older drafts' RateLimit fields, reset in `seconds`, beside the HTTP-date",
    params: { seconds: 30, rateLimit: "draft" },
    steps: [{ fault: { kind: "rate_limited", retryAfter: "Mon, 30 Nov 2026 12:00:30 GMT", body: "text", rateLimit: { form: "draft", policy: "default", quota: 100, windowSeconds: 60, resetSeconds: 30 } } }],
  },
]);
