import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "streams.cut_before_response",
  title: "Stream cut before the response",
  summary:
    "Selected requests (tools/call by default) get a 200 SSE stream that ends before the final response, in both eras. The request is really handled, so a tool's effect happens (a place_order order is placed) although the client never sees the result. The cut is a clean end of the body: Workers cannot send a TCP reset.",
  layer: "transport",
  params: {},
  judging: { checks: ["request-after-cut", "cut-call-resent", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "cut_stream", priming: false, retryMs: 0 }),
});
