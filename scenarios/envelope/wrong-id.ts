import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "envelope.wrong_id",
  title: "Wrong response id",
  summary:
    "Selected responses (tools/call by default) carry an id that is not the request's (numeric ids + 1000, string ids + \"-other\"), so the client cannot match them; the result itself is correct and the tool has run. Both eras.",
  layer: "protocol",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "envelope", variant: "wrong_id" }),
});
