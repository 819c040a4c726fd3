import { cases, method } from "../../../helpers/decide.ts";

export default cases("streams.cut_with_resume", [
  {
    name: "a selected tools/call is primed with an event id and retryMs, then cut",
    params: { retryMs: 1000 },
    steps: [{ fault: { kind: "cut_stream", priming: true, retryMs: 1000 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
