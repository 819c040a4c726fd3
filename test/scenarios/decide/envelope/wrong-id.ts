import { cases, method } from "../../../helpers/decide.ts";

export default cases("envelope.wrong_id", [
  {
    name: "a selected tools/call is answered with another id",
    params: {},
    steps: [{ fault: { kind: "envelope", variant: "wrong_id" } }, { request: method("tools/list"), fault: undefined }],
  },
]);
