import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "envelope.result_and_error",
  title: "Both result and error",
  summary:
    "Selected responses (tools/call by default) carry both a result and an error (-32603); JSON-RPC 2.0 and every MCP version allow exactly one. The tool has run. Both eras.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "envelope", variant: "result_and_error" }),
});
