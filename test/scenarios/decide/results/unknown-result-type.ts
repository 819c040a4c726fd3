import { cases, method } from "../../../helpers/decide.ts";

export default cases("results.unknown_result_type", [
  {
    name: "a selected tools/call gets an unknown resultType",
    params: {},
    steps: [{ fault: { kind: "bad_result", variant: "unknown_result_type" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
