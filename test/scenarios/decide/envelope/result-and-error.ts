import { cases, method } from "../../../helpers/decide.ts";

export default cases("envelope.result_and_error", [
  {
    name: "a selected tools/call is answered with both result and error",
    params: {},
    steps: [{ fault: { kind: "envelope", variant: "result_and_error" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
