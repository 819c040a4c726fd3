import { cases, legacy, method } from "../../../helpers/decide.ts";

const refusal = { kind: "jsonrpc_error", code: -32600, message: "Bad Request: Mcp-Session-Id header is required", httpStatus: 400 };
const onSession = (id = "s1") => method("tools/list", legacy({ mcpSessionId: id }));

export default cases("session.missing_id", [
  {
    name: "only the nth request on each legacy session is refused as if it had no Mcp-Session-Id",
    params: { nth: 2 },
    steps: [
      { request: onSession(), fault: undefined },
      { request: onSession("s2"), fault: undefined },
      { request: onSession(), fault: refusal },
      { request: onSession(), fault: undefined },
      { request: onSession("s2"), fault: refusal },
    ],
  },
  {
    name: "persistent=true refuses every request from the nth on",
    params: { nth: 2, persistent: true },
    steps: [{ request: onSession(), fault: undefined }, { request: onSession(), fault: refusal }, { request: onSession(), fault: refusal }],
  },
  {
    name: "notifications, initialize, requests without a session id and 2026-07-28 requests are not counted",
    steps: [
      { request: method("initialize", legacy({ mcpSessionId: undefined })), fault: undefined },
      { request: method("notifications/initialized", legacy({ kind: "notification" })), fault: undefined },
      { request: method("tools/list"), fault: undefined },
      { request: onSession(), fault: refusal },
    ],
  },
]);
