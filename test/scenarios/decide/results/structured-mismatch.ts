import { call, cases, legacy, method } from "../../../helpers/decide.ts";

export default cases("results.structured_mismatch", [
  {
    name: "by default every place_order call gets a mismatched structuredContent, in both eras; echo and tools/list are left alone",
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: { kind: "bad_result", variant: "structured_mismatch" } },
      { request: call("place_order", legacy()), fault: { kind: "bad_result", variant: "structured_mismatch" } },
    ],
  },
  {
    name: "with tool echo and variant missing only echo loses its structuredContent, and nth counts only echo's calls",
    params: { tool: "echo", variant: "missing", nth: 2 },
    steps: [
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: undefined },
      { request: call("echo"), fault: { kind: "bad_result", variant: "structured_missing" } },
      { request: call("echo"), fault: undefined },
    ],
  },
  {
    name: "variant error_with_structured turns the selected call into an isError result with structuredContent",
    params: { variant: "error_with_structured", times: 1 },
    steps: [
      { request: call("place_order"), fault: { kind: "bad_result", variant: "error_with_structured" } },
      { request: call("place_order"), fault: undefined },
    ],
  },
]);
