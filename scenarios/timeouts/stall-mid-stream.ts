import { z } from "zod";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "timeouts.stall_mid_stream",
  title: "Stall mid-stream",
  summary:
    "Selected requests (tools/call by default) are answered on an SSE stream: headers and a first comment line at once, then silence for `ms` milliseconds, then the response event. Tests idle timeouts that start after the headers.",
  layer: "transport",
  params: {
    ms: z.number().int().min(0).max(600_000).default(65_000).describe("How long the stream stays silent after its first bytes"),
  },
  judging: {
    checks: ["timeout-client-bounded", "non-idempotent-not-replayed"],
    cannotTell: "that a client left during the silence: the server learns of a leave only when it next writes, so a client that gave up reads as one that waited",
  },
  example: { ms: 10_000 },
  fault: ({ params }) => ({ kind: "stall_stream", ms: params.ms }),
});
