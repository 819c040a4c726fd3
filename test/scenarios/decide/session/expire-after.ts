import { cases, legacy, method } from "../../../helpers/decide.ts";

const onSession = (name: string) => method(name, legacy());

export default cases("session.expire_after", [
  {
    name: "the legacy session ends after `requests` requests, and stays ended",
    params: { requests: 2 },
    steps: [
      { request: onSession("notifications/initialized"), fault: undefined },
      { request: onSession("tools/list"), fault: undefined },
      { request: onSession("tools/list"), fault: { kind: "session_expired" } },
      { request: onSession("ping"), fault: { kind: "session_expired" } },
    ],
  },
  {
    name: "an initialize is never refused, and a new session has its own count",
    params: { requests: 1 },
    steps: [
      { request: onSession("tools/list"), fault: undefined },
      { request: method("initialize", legacy()), fault: undefined },
      { request: method("tools/list", legacy({ mcpSessionId: "s2" })), fault: undefined },
      { request: onSession("tools/list"), fault: { kind: "session_expired" } },
    ],
  },
  {
    name: "2026-07-28 requests are left alone",
    params: { requests: 1 },
    steps: [{ fault: undefined }, { fault: undefined }, { fault: undefined }],
  },
]);
