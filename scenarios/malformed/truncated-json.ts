import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "malformed.truncated_json",
  title: "Truncated JSON",
  summary:
    "Selected responses (tools/call by default) carry the first half of the real JSON-RPC response and nothing more: a complete 200 body (or one complete SSE event with responseMode sse) whose JSON stops mid-value. The tool has run.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["tools/call", "tools/list"] },
  fault: () => ({ kind: "malformed", variant: "truncated_json" }),
});
