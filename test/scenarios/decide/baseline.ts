import { cases } from "../../helpers/decide.ts";

export default cases("baseline", [
  { name: "with no delay every request passes", steps: [{ fault: undefined }, { fault: undefined }] },
  { name: "delayMs delays each request by that much", params: { delayMs: 250 }, steps: [{ fault: { kind: "delay", ms: 250 } }, { fault: { kind: "delay", ms: 250 } }] },
]);
