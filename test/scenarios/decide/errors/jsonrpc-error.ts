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
]);
