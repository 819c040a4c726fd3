import { call, cases, legacy, method } from "../../../helpers/decide.ts";

export default cases("catalog.mutation", [
  {
    name: "in a legacy era, trigger_tool_change answers on SSE so the list_changed notification can ride on it",
    steps: [{ request: call("echo", legacy()), fault: undefined }, { request: call("trigger_tool_change", legacy()), fault: { kind: "respond_sse" } }],
  },
  {
    name: "with afterListCalls=1 the second legacy tools/list answers on SSE, the first and third do not",
    params: { afterListCalls: 1 },
    steps: [
      { request: method("tools/list", legacy()), fault: undefined },
      { request: method("tools/list", legacy()), fault: { kind: "respond_sse" } },
      { request: method("tools/list", legacy()), fault: undefined },
    ],
  },
  {
    name: "2026-07-28 requests are never faulted: the change is announced on subscriptions/listen instead",
    params: { afterListCalls: 1 },
    steps: [{ request: call("trigger_tool_change"), fault: undefined }, { request: method("tools/list"), fault: undefined }, { request: method("tools/list"), fault: undefined }],
  },
]);
