import { cases, method } from "../../../helpers/decide.ts";

export default cases("envelope.missing_jsonrpc", [
  {
    name: "a selected tools/call is answered without the jsonrpc member",
    params: {},
    steps: [{ fault: { kind: "envelope", variant: "no_jsonrpc" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
