import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "envelope.null_id",
  title: "Null response id",
  summary:
    "Selected responses (tools/call by default) carry \"id\": null with a normal result. MCP ids are strings or integers and never null, and JSON-RPC allows a null id only on an error for an unreadable request. The tool has run. Both eras.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "envelope", variant: "null_id" }),
});
