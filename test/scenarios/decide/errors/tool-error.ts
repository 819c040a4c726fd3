import { call, cases, method } from "../../../helpers/decide.ts";

export default cases("errors.tool_error", [
  {
    name: "the nth call of a listed tool gets isError; calls of other tools are not counted",
    params: { nth: 2, tools: ["place_order"], text: "Payment declined" },
    steps: [
      { request: call("place_order"), fault: undefined },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: { kind: "tool_error", text: "Payment declined" } },
      { request: call("place_order"), fault: undefined },
    ],
  },
  {
    name: "by default the first call of run_configured_test_scenario fails with the default text",
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("run_configured_test_scenario"), fault: { kind: "tool_error", text: "The tool failed: upstream inventory service is unavailable (injected by Faultline)." } },
    ],
  },
  {
    name: "Test Kitchen's errorMessage and onInvocation set the text and which call of run_configured_test_scenario fails",
    params: { errorMessage: "Tool-side failure", onInvocation: 2 },
    steps: [
      { request: call("run_configured_test_scenario"), fault: undefined },
      { request: call("run_configured_test_scenario"), fault: { kind: "tool_error", text: "Tool-side failure" } },
    ],
  },
]);
