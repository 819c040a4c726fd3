import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "envelope.missing_jsonrpc",
  title: "Missing jsonrpc member",
  summary:
    "Selected responses (tools/call by default) lack the \"jsonrpc\": \"2.0\" member that every JSON-RPC message MUST carry; id and result are correct and the tool has run. Both eras.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { methods: ["tools/call", "tools/list"] },
  fault: () => ({ kind: "envelope", variant: "no_jsonrpc" }),
});
