import { call, cases, method } from "../../../helpers/decide.ts";

export default cases("errors.jsonrpc_error", [
  {
    name: "only the nth tools/call gets the error, with HTTP 200",
    params: { nth: 2, code: -32603, message: "Internal error", data: { hint: "x" } },
    steps: [
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: { kind: "jsonrpc_error", code: -32603, message: "Internal error", data: { hint: "x" }, httpStatus: 200 } },
      { request: call("echo"), fault: undefined },
    ],
  },
  {
    name: "other methods are neither faulted nor counted",
    steps: [{ request: method("tools/list"), fault: undefined }, { request: call("echo"), fault: { kind: "jsonrpc_error", code: -32602, message: "Invalid params (injected by Faultline)", httpStatus: 200 } }],
  },
  {
    name: "Test Kitchen's onInvocation picks the nth tools/call like nth",
    params: { onInvocation: 2, code: -32602, message: "Invalid params" },
    steps: [
      { request: call("run_configured_test_scenario"), fault: undefined },
      { request: call("run_configured_test_scenario"), fault: { kind: "jsonrpc_error", code: -32602, message: "Invalid params", httpStatus: 200 } },
      { request: call("run_configured_test_scenario"), fault: undefined },
    ],
  },
  {
    name: "nth and onInvocation given with the same value fail that one call",
    params: { nth: 3, onInvocation: 3 },
    steps: [{ request: call("echo"), fault: undefined }, { request: call("echo"), fault: undefined }, { request: call("echo"), fault: { kind: "jsonrpc_error", code: -32602, message: "Invalid params (injected by Faultline)", httpStatus: 200 } }],
  },
]);
