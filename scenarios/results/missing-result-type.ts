import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "results.missing_result_type",
  title: "Missing resultType",
  summary:
    "2026-07-28: selected results (tools/call by default) lack resultType, which every 2026 result MUST carry (clients read an absent one as \"complete\"). Legacy results never have resultType, so in legacy eras this scenario injects nothing and answers normally.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["*"] },
  fault: ({ request }) => (request.era === "modern" ? { kind: "bad_result", variant: "missing_result_type" } : undefined),
});
