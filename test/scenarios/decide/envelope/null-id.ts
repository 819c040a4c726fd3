import { cases, method } from "../../../helpers/decide.ts";

export default cases("envelope.null_id", [
  {
    name: "a selected tools/call is answered with a null id",
    params: {},
    steps: [{ fault: { kind: "envelope", variant: "null_id" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
