import { call, cases, legacy, method } from "../../../helpers/decide.ts";

export default cases("results.oversized", [
  {
    name: "by default every tools/call gets a 2 MiB text block added, in both eras; tools/list is left alone",
    steps: [
      { request: method("tools/list"), fault: undefined },
      { request: call("echo"), fault: { kind: "oversized", variant: "text_mb", bytes: 2 * 1024 * 1024, blocks: 5_000 } },
      { request: call("place_order", legacy()), fault: { kind: "oversized", variant: "text_mb", bytes: 2 * 1024 * 1024, blocks: 5_000 } },
    ],
  },
  {
    name: "with `tool` only that tool's calls grow, and nth counts only them",
    params: { tool: "place_order", variant: "many_blocks", blocks: 3_000, nth: 2 },
    steps: [
      { request: call("place_order"), fault: undefined },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: { kind: "oversized", variant: "many_blocks", bytes: 2 * 1024 * 1024, blocks: 3_000 } },
      { request: call("place_order"), fault: undefined },
    ],
  },
  {
    name: "large_image carries its size in bytes",
    params: { variant: "large_image", bytes: 4096 },
    steps: [{ request: call("echo"), fault: { kind: "oversized", variant: "large_image", bytes: 4096, blocks: 5_000 } }],
  },
]);
