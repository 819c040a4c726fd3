import { cases, method } from "../../../helpers/decide.ts";

export default cases("timeouts.never_complete", [
  {
    name: "a selected tools/call hangs with keep-alives for the default ms and interval",
    params: {},
    steps: [{ fault: { kind: "hang", ms: 120000, keepAliveMs: 15000 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
