import { cases, method } from "../../../helpers/decide.ts";

export default cases("malformed.truncated_json", [
  {
    name: "a selected tools/call gets half of its response",
    params: {},
    steps: [{ fault: { kind: "malformed", variant: "truncated_json" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
