import { cases, method } from "../../../helpers/decide.ts";

export default cases("malformed.html_error_page", [
  {
    name: "a selected tools/call gets an HTML page",
    params: {},
    steps: [{ fault: { kind: "malformed", variant: "html_page" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
