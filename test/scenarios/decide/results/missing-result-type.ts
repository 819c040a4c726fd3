import { cases, legacy } from "../../../helpers/decide.ts";

export default cases("results.missing_result_type", [
  {
    name: "a selected 2026-07-28 tools/call loses its resultType",
    steps: [{ fault: { kind: "bad_result", variant: "missing_result_type" } }],
  },
  {
    name: "a legacy result never has resultType, so nothing is injected",
    steps: [{ request: legacy(), fault: undefined }],
  },
]);
