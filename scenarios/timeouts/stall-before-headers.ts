import { z } from "zod";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "timeouts.stall_before_headers",
  title: "Stall before headers",
  summary:
    "Selected requests (tools/call by default) get no response at all, not even headers, for `ms` milliseconds; then the normal answer. The tool runs only when the stall ends. The default outlasts the MCP SDKs' 60-second request timeout.",
  layer: "transport",
  params: {
    ms: z.number().int().min(0).max(600_000).default(65_000).describe("How long the server waits before it sends the status line and headers"),
  },
  judging: {
    checks: ["timeout-client-bounded", "non-idempotent-not-replayed"],
    cannotTell: "that a client left during the silence: the server learns of a leave only when it next writes, so a client that gave up reads as one that waited",
  },
  example: { ms: 5_000, methods: ["tools/call"], nth: 1 },
  fault: ({ params }) => ({ kind: "delay", ms: params.ms }),
});
