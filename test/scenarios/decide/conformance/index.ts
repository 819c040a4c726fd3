import { call, cases, legacy } from "../../../helpers/decide.ts";

export default cases("conformance", [
  {
    name: "a legacy test_reconnection call is cut after a priming event, so the client resumes with Last-Event-ID (SEP-1699)",
    steps: [{ request: call("test_reconnection", legacy()), fault: { kind: "cut_stream", priming: true, retryMs: 200 } }],
  },
  {
    name: "other tools, and test_reconnection in 2026-07-28, are not faulted",
    steps: [{ request: call("test_simple_text", legacy()), fault: undefined }, { request: call("test_reconnection"), fault: undefined }],
  },
]);
