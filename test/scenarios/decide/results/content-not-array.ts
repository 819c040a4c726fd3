import { cases, method } from "../../../helpers/decide.ts";

export default cases("results.content_not_array", [
  {
    name: "a selected tools/call gets content as an object",
    params: {},
    steps: [{ fault: { kind: "bad_result", variant: "content_not_array" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
