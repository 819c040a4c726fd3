import { cases, method } from "../../../helpers/decide.ts";

const held = (ms: number) => ({ kind: "delay", ms });
const limited = (seconds: number) => ({ kind: "rate_limited", retryAfter: seconds, body: "text" });

export default cases("ratelimit.concurrency", [
  {
    name: "the first `limit` selected requests are held, the next `times` get 429, and later ones are held again",
    params: { limit: 2, times: 3, holdMs: 800, seconds: 4 },
    steps: [
      { fault: held(800) },
      { fault: held(800) },
      { fault: limited(4) },
      { fault: limited(4) },
      { fault: limited(4) },
      { fault: held(800) },
    ],
  },
  {
    name: "requests of methods not selected are neither counted nor limited",
    params: { limit: 1, times: 1 },
    steps: [{ request: method("tools/list"), fault: undefined }, { fault: held(500) }, { request: method("ping"), fault: undefined }, { fault: limited(1) }, { fault: held(500) }],
  },
  {
    name: "methods [\"*\"] counts every request, a notification never",
    params: { limit: 1, times: 1, methods: ["*"], holdMs: 0 },
    steps: [{ request: method("tools/list") , fault: held(0) }, { request: { ...method("notifications/initialized"), kind: "notification" }, fault: undefined }, { request: method("ping"), fault: limited(1) }],
  },
  {
    name: "rateLimit adds RateLimit fields to the 429s only, reset in `seconds`",
    params: { limit: 1, times: 1, seconds: 7, rateLimit: "ietf", quota: 5, window: 10 },
    steps: [{ fault: held(500) }, { fault: { ...limited(7), rateLimit: { form: "ietf", policy: "default", quota: 5, windowSeconds: 10, resetSeconds: 7 } } }],
  },
]);
