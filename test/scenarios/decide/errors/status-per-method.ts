import { call, cases, method } from "../../../helpers/decide.ts";

export default cases("errors.status_per_method", [
  {
    name: "each listed method gets its status every time; other methods pass",
    params: { statuses: { "tools/list": 500, "tools/call": 503 }, retryAfter: 2, body: "text" },
    steps: [
      { request: method("tools/list"), fault: { kind: "http_status", status: 500, body: "text", retryAfter: 2 } },
      { request: call("echo"), fault: { kind: "http_status", status: 503, body: "text", retryAfter: 2 } },
      { request: call("echo"), fault: { kind: "http_status", status: 503, body: "text", retryAfter: 2 } },
      { request: method("ping"), fault: undefined },
    ],
  },
  {
    name: "a notification whose method is listed gets the status too; a body without a method never does",
    params: { statuses: { "notifications/initialized": 400 } },
    steps: [
      { request: method("notifications/initialized", { kind: "notification" }), fault: { kind: "http_status", status: 400, body: "empty" } },
      { request: method("x", { kind: "response", method: undefined }), fault: undefined },
    ],
  },
]);
