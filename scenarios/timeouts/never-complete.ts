import { z } from "zod";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "timeouts.never_complete",
  title: "Never complete",
  summary:
    "Selected requests (tools/call by default) get an SSE stream that carries only keep-alive comments for `ms` milliseconds and then ends with no response. The tool never runs. The end is a clean close of the body: Workers cannot reset the TCP connection.",
  layer: "transport",
  params: {
    ms: z.number().int().min(0).max(600_000).default(120_000).describe("How long the stream stays open"),
    keepAliveMs: z.number().int().min(10).max(60_000).default(15_000).describe("Interval between `: keep-alive` comment lines"),
  },
  judging: { checks: ["timeout-client-bounded", "timeout-cancelled", "non-idempotent-not-replayed"] },
  example: { ms: 30_000, keepAliveMs: 5_000 },
  fault: ({ params }) => ({ kind: "hang", ms: params.ms, keepAliveMs: params.keepAliveMs }),
});
