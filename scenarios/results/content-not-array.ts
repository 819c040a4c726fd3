import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "results.content_not_array",
  title: "Tool result content is not an array",
  summary:
    "Selected tools/call results carry content as a single object instead of an array of content blocks, invalid in every MCP version. The tool has run. Error responses are left alone.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "bad_result", variant: "content_not_array" }),
});
