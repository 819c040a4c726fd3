import { call, cases, legacy, method } from "../../../helpers/decide.ts";

const methodNotFound = { kind: "jsonrpc_error", code: -32601, message: "Method not found", httpStatus: 200 };

export default cases("catalog.facet_unavailable", [
  {
    name: "by default resources/list gets -32601 at HTTP 200 and prompts/list, tools/list and tools/call are answered",
    steps: [
      { request: method("resources/list"), fault: methodNotFound },
      { request: method("prompts/list"), fault: undefined },
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: undefined },
      { request: method("resources/list"), fault: methodNotFound },
    ],
  },
  {
    name: "with both facets listed both list methods fail, in the legacy era too, and resources/read does not",
    params: { unavailableFacets: ["resources", "prompts"] },
    steps: [
      { request: legacy({ method: "prompts/list", toolName: undefined }), fault: methodNotFound },
      { request: legacy({ method: "resources/list", toolName: undefined }), fault: methodNotFound },
      { request: method("resources/read"), fault: undefined },
    ],
  },
  {
    name: "a notification that names a list method is not answered with an error",
    params: { unavailableFacets: ["prompts"] },
    steps: [{ request: method("prompts/list", { kind: "notification" }), fault: undefined }],
  },
]);
