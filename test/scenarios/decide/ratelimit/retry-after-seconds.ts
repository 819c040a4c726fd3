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
]);
