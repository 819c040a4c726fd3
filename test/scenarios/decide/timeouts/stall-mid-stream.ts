import { cases, method } from "../../../helpers/decide.ts";

export default cases("timeouts.stall_mid_stream", [
  {
    name: "a selected tools/call stalls its stream for the default 65 s, past the SDKs' 60-second timeout",
    params: {},
    steps: [{ fault: { kind: "stall_stream", ms: 65000 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
