import { call, cases, legacy, method } from "../../helpers/decide.ts";

const nth = (n: number, fault: Record<string, unknown>) => ({ match: { method: "tools/call", nth: n }, fault });
const status503 = { kind: "http_status", status: 503, body: "empty" };

export default cases("script", [
  { name: "with no rules every request passes", steps: [{ fault: undefined }, { request: method("tools/list"), fault: undefined }] },
  {
    name: "the catalogue example plays 503, 503, isError, then success",
    params: {
      rules: [
        nth(1, { kind: "http_status", status: 503, retryAfter: 1 }),
        nth(2, { kind: "http_status", status: 503, retryAfter: 1 }),
        nth(3, { kind: "tool_error", text: "Upstream still warming up" }),
      ],
    },
    steps: [
      { fault: { ...status503, retryAfter: 1 } },
      { request: method("tools/list"), fault: undefined },
      { fault: { ...status503, retryAfter: 1 } },
      { fault: { kind: "tool_error", text: "Upstream still warming up" } },
      { fault: undefined },
    ],
  },
  {
    name: "a rule's fault gets its schema's defaults",
    params: { rules: [{ fault: { kind: "jsonrpc_error", code: -32000 } }] },
    steps: [{ fault: { kind: "jsonrpc_error", code: -32000, message: "Injected error", httpStatus: 200 } }],
  },
  {
    name: "the first matching rule wins when two rules match the same request",
    params: { rules: [{ match: { tool: "echo" }, fault: { kind: "tool_error", text: "first" } }, { match: {}, fault: status503 }] },
    steps: [{ request: call("echo"), fault: { kind: "tool_error", text: "first" } }, { request: call("place_order"), fault: status503 }],
  },
  {
    name: "from faults the nth matching request and every later one",
    params: { rules: [{ match: { method: "tools/call", from: 2 }, fault: status503 }] },
    steps: [{ fault: undefined }, { fault: status503 }, { request: method("tools/list"), fault: undefined }, { fault: status503 }],
  },
  {
    name: "every faults each kth matching request",
    params: { rules: [{ match: { method: "tools/call", every: 2 }, fault: status503 }] },
    steps: [{ fault: undefined }, { fault: status503 }, { fault: undefined }, { fault: status503 }],
  },
  {
    name: "a tool match counts only calls of that tool",
    params: { rules: [{ match: { tool: "place_order", nth: 2 }, fault: status503 }] },
    steps: [{ request: call("place_order"), fault: undefined }, { request: call("echo"), fault: undefined }, { request: call("place_order"), fault: status503 }],
  },
  {
    name: "a filter's requests are counted even when an earlier rule won them",
    params: { rules: [{ match: { method: "tools/call", nth: 1 }, fault: { kind: "tool_error", text: "a" } }, { match: { method: "tools/call", nth: 2 }, fault: status503 }] },
    steps: [{ fault: { kind: "tool_error", text: "a" } }, { fault: status503 }, { fault: undefined }],
  },
  {
    name: "a seeded probability draws the same pattern every run: 0 never hits, 1 always does",
    params: { rules: [{ match: { method: "tools/call", probability: 0 }, fault: status503 }, { match: { method: "tools/list", probability: 1, seed: 7 }, fault: { kind: "malformed", variant: "invalid_json" } }] },
    steps: [{ fault: undefined }, { request: method("tools/list"), fault: { kind: "malformed", variant: "invalid_json" } }, { fault: undefined }],
  },
  {
    name: "a rule can fault a legacy initialize, and the next initialize passes",
    params: { rules: [{ match: { method: "initialize", nth: 1 }, fault: status503 }] },
    steps: [{ request: method("initialize", legacy({ mcpSessionId: undefined })), fault: status503 }, { request: method("initialize", legacy({ mcpSessionId: undefined })), fault: undefined }],
  },
]);
