import { cases, method } from "../../../helpers/decide.ts";

export default cases("timeouts.slow_drip", [
  {
    name: "a selected tools/call drips chunkBytes every intervalMs",
    params: { chunkBytes: 3, intervalMs: 40 },
    steps: [{ fault: { kind: "drip", chunkBytes: 3, intervalMs: 40 } }, { request: method("tools/list"), fault: undefined }],
  },
]);
