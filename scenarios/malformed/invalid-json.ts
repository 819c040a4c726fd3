import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "malformed.invalid_json",
  title: "Invalid JSON",
  summary:
    "Selected responses (tools/call by default) are 200 application/json with a body that is not JSON (unquoted keys and words); with responseMode sse, the same text is the data of an SSE message event. The tool does not run.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["tools/call"], nth: 1 },
  fault: () => ({ kind: "malformed", variant: "invalid_json" }),
});
