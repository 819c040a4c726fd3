import { cases, method } from "../../../helpers/decide.ts";

export default cases("malformed.invalid_json", [
  {
    name: "a selected tools/call gets a body that does not parse",
    params: {},
    steps: [{ fault: { kind: "malformed", variant: "invalid_json" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
