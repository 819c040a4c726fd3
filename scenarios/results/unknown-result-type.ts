import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "results.unknown_result_type",
  title: "Unknown resultType",
  summary:
    "Selected results (tools/call by default) carry resultType \"partial\". 2026-07-28 clients MUST treat an unrecognized resultType as invalid. Legacy results have no resultType, so there it is an unknown extra member that 2025-11-25 and 2025-06-18 clients should ignore.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["tools/call", "tools/list"] },
  fault: () => ({ kind: "bad_result", variant: "unknown_result_type" }),
});
