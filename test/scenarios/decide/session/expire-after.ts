import { cases, legacy, method } from "../../../helpers/decide.ts";

const onSession = (name: string) => method(name, legacy());
const expired = (variant = "not_found") => ({ kind: "session_expired", variant });

export default cases("session.expire_after", [
  {
    name: "the legacy session ends after `requests` requests, and stays ended",
    params: { requests: 2 },
    steps: [
      { request: onSession("notifications/initialized"), fault: undefined },
      { request: onSession("tools/list"), fault: undefined },
      { request: onSession("tools/list"), fault: expired() },
      { request: onSession("ping"), fault: expired() },
    ],
  },
  {
    name: "an initialize is never refused, and a new session has its own count",
    params: { requests: 1 },
    steps: [
      { request: onSession("tools/list"), fault: undefined },
      { request: method("initialize", legacy()), fault: undefined },
      { request: method("tools/list", legacy({ mcpSessionId: "s2" })), fault: undefined },
      { request: onSession("tools/list"), fault: expired() },
    ],
  },
  {
    name: "the variant names the answer, and a session that ended otherwise gets it at once",
    params: { requests: 5, variant: "bad_request_no_valid_session" },
    steps: [
      { request: onSession("tools/list"), fault: undefined },
      { request: method("tools/list", legacy({ mcpSessionEnded: true })), fault: expired("bad_request_no_valid_session") },
    ],
  },
  {
    name: "2026-07-28 requests are left alone",
    params: { requests: 1, variant: "gone" },
    steps: [{ fault: undefined }, { fault: undefined }, { fault: undefined }],
  },
]);
