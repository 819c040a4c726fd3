import { cases, method } from "../../../helpers/decide.ts";

export default cases("timeouts.stall_before_headers", [
  {
    name: "a selected tools/call is held for ms before its headers; tools/list is not selected by default",
    params: { ms: 5000 },
    steps: [{ fault: { kind: "delay", ms: 5000 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
