import { call, cases, method } from "../../../helpers/decide.ts";

export default cases("errors.http_status_sequence", [
  {
    name: "POST n gets statusCodes[n-1], a 2xx passes, and the last code repeats",
    params: { statusCodes: [503, 200, 429] },
    steps: [
      { fault: { kind: "http_status", status: 503, body: "empty" } },
      { fault: undefined },
      { fault: { kind: "http_status", status: 429, body: "empty" } },
      { fault: { kind: "http_status", status: 429, body: "empty" } },
    ],
  },
  {
    name: "every POST counts, tools/list and notifications too, by default",
    params: { statusCodes: [200, 200, 500] },
    steps: [{ request: method("initialize"), fault: undefined }, { request: method("notifications/initialized", { kind: "notification" }), fault: undefined }, { request: method("tools/list"), fault: { kind: "http_status", status: 500, body: "empty" } }],
  },
  {
    name: "countMethods counts and faults only those methods",
    params: { statusCodes: [503, 200], countMethods: ["tools/call"] },
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: { kind: "http_status", status: 503, body: "empty" } },
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: undefined },
    ],
  },
  {
    name: "retryAfter and body are carried on the fault",
    params: { statusCodes: [503], retryAfter: 2, body: "jsonrpc" },
    steps: [{ fault: { kind: "http_status", status: 503, body: "jsonrpc", retryAfter: 2 } }],
  },
  {
    name: "an HTTP-date retryAfter is carried as given",
    params: { statusCodes: [429], retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT" },
    steps: [{ fault: { kind: "http_status", status: 429, body: "empty", retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT" } }],
  },
]);
