import { cases, method } from "../../../helpers/decide.ts";

export default cases("malformed.wrong_content_type", [
  {
    name: "a selected tools/call is labelled with the wrong Content-Type",
    params: {},
    steps: [{ fault: { kind: "malformed", variant: "wrong_content_type" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
