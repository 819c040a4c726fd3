import { call, cases, legacy, method } from "../../../helpers/decide.ts";

export default cases("intermediary.proxy", [
  {
    name: "by default a tools/call meets nginx's 504 after a 5 s idle window, with the server behind silent 5 s longer; tools/list passes",
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: { kind: "idle_cut", ms: 5_000, workMs: 10_000, status: 504, page: "nginx" } },
      { request: call("place_order", legacy()), fault: { kind: "idle_cut", ms: 5_000, workMs: 10_000, status: 504, page: "nginx" } },
    ],
  },
  {
    name: "each preset names its status and page; workMs given is kept as it is, even below the window",
    params: { preset: "cloudflare_524", idleMs: 300, workMs: 100 },
    steps: [{ fault: { kind: "idle_cut", ms: 300, workMs: 100, status: 524, page: "cloudflare" } }],
  },
  {
    name: "alb_502 answers 502 with a load balancer's page, alb_504 a 504",
    params: { preset: "alb_502", idleMs: 1_000, nth: 2 },
    steps: [
      { fault: undefined },
      { fault: { kind: "idle_cut", ms: 1_000, workMs: 6_000, status: 502, page: "alb" } },
      { fault: undefined },
    ],
  },
  {
    name: "alb_504 answers 504 with a load balancer's page",
    params: { preset: "alb_504" },
    steps: [{ fault: { kind: "idle_cut", ms: 5_000, workMs: 10_000, status: 504, page: "alb" } }],
  },
  {
    name: "headers_withheld holds the headers for workMs (default idleMs + 5 s); the idle window does not apply",
    params: { preset: "headers_withheld", idleMs: 100 },
    steps: [{ fault: { kind: "buffered", hold: "headers", ms: 5_100, intervalMs: 1_000 } }],
  },
  {
    name: "sse_buffered holds the events of a stream that runs workMs, with its notifications every intervalMs",
    params: { preset: "sse_buffered", workMs: 800, intervalMs: 200, methods: ["tools/call", "resources/read"] },
    steps: [
      { request: method("resources/read"), fault: { kind: "buffered", hold: "events", ms: 800, intervalMs: 200 } },
      { request: method("tools/list"), fault: undefined },
    ],
  },
]);
