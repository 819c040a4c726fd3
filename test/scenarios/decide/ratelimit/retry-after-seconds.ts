import { cases, method } from "../../../helpers/decide.ts";

export default cases("ratelimit.retry_after_seconds", [
  {
    name: "the first `times` selected requests get 429 with Retry-After in seconds, then they pass",
    params: { times: 2, seconds: 5, methods: ["tools/call", "tools/list"] },
    steps: [
      { fault: { kind: "rate_limited", retryAfter: 5, body: "text" } },
      { request: method("tools/list"), fault: { kind: "rate_limited", retryAfter: 5, body: "text" } },
      { fault: undefined },
    ],
  },
  {
    name: "by default only the first tools/call is limited, for 1 second",
    steps: [{ request: method("tools/list"), fault: undefined }, { fault: { kind: "rate_limited", retryAfter: 1, body: "text" } }, { fault: undefined }],
  },
  {
    name: "rateLimit adds RateLimit fields whose quota is spent and resets in `seconds`, beside Retry-After",
    params: { seconds: 30, rateLimit: "ietf", quota: 50, window: 10 },
    steps: [{ fault: { kind: "rate_limited", retryAfter: 30, body: "text", rateLimit: { form: "ietf", policy: "default", quota: 50, windowSeconds: 10, resetSeconds: 30 } } }],
  },
  {
    name: "retryAfter false sends no Retry-After: the RateLimit fields are the only hint",
    params: { seconds: 3, rateLimit: "x", retryAfter: false },
    steps: [{ fault: { kind: "rate_limited", retryAfter: null, body: "text", rateLimit: { form: "x", policy: "default", quota: 100, windowSeconds: 60, resetSeconds: 3 } } }, { fault: undefined }],
  },
]);
