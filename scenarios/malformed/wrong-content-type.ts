import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "malformed.wrong_content_type",
  title: "Wrong Content-Type",
  summary:
    "Selected responses (tools/call by default) carry the correct JSON-RPC response, but as text/plain; every MCP version requires application/json or text/event-stream for the answer to a request. The tool has run.",
  layer: "transport",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["tools/call"] },
  fault: () => ({ kind: "malformed", variant: "wrong_content_type" }),
});
