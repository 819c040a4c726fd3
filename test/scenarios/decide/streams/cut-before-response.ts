import { cases, method } from "../../../helpers/decide.ts";

export default cases("streams.cut_before_response", [
  {
    name: "a selected tools/call has its stream cut with no priming event",
    params: {},
    steps: [{ fault: { kind: "cut_stream", priming: false, retryMs: 0 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
