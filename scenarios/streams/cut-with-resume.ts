import { z } from "zod";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "streams.cut_with_resume",
  title: "Stream cut, resumable",
  summary:
    "Legacy eras: a selected request's SSE stream sends a priming event (an id with empty data, and retry: retryMs), then closes before the response; a GET on the same MCP URL with Last-Event-ID set to that id delivers the response once. 2026-07-28 has no resumption (Last-Event-ID is not supported), so there this behaves like streams.cut_before_response.",
  layer: "transport",
  params: {
    retryMs: z.number().int().min(0).max(60_000).default(500).describe("The SSE retry field: how long the client waits before it reconnects"),
  },
  judging: { checks: ["stream-resumed", "stream-retry-honoured", "cut-call-resent"] },
  example: { retryMs: 1_000, nth: 1 },
  fault: ({ params }) => ({ kind: "cut_stream", priming: true, retryMs: params.retryMs }),
});
