import { call, cases, legacy, method } from "../../../helpers/decide.ts";

export default cases("progress.long_running", [
  {
    name: "every tools/call runs 90 s by default, with the default patience and the 120 s bound; tools/list is answered at once",
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: { kind: "progress", ms: 90_000, intervalMs: 5_000, patienceMs: 90_000, boundMs: 120_000 } },
      { request: call("place_order", legacy()), fault: { kind: "progress", ms: 90_000, intervalMs: 5_000, patienceMs: 90_000, boundMs: 120_000 } },
    ],
  },
  {
    name: "with `tool` only that tool's calls run long, and nth counts only them",
    params: { tool: "place_order", nth: 2, ms: 500, intervalMs: 50, expectPatienceMs: 200, expectBoundMs: 400 },
    steps: [
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: undefined },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: { kind: "progress", ms: 500, intervalMs: 50, patienceMs: 200, boundMs: 400 } },
      { request: call("place_order"), fault: undefined },
    ],
  },
]);
