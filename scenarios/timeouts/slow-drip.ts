import { z } from "zod";
import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "timeouts.slow_drip",
  title: "Slow drip",
  summary:
    "Selected responses (tools/call by default) arrive `chunkBytes` bytes at a time, one chunk every `intervalMs` milliseconds, as a JSON body (or one SSE event with responseMode sse). The bytes are complete and correct; only their pace is wrong. The response says Cache-Control: no-transform and Content-Encoding: identity, so it is not compressed on the way (a gzip encoder would read the whole drip ahead of the client and merge the chunks); the client's reading paces it, and a client that leaves midway is journalled with the bytes it was sent.",
  layer: "transport",
  params: {
    chunkBytes: z.number().int().min(1).max(65_536).default(8).describe("Bytes per chunk"),
    intervalMs: z.number().int().min(1).max(10_000).default(250).describe("Pause between chunks (at most 10 s; the whole response still ends within FAULTLINE_MAX_RESPONSE_SECONDS)"),
  },
  judging: { checks: ["timeout-client-bounded", "timeout-cancelled", "non-idempotent-not-replayed"] },
  example: { chunkBytes: 4, intervalMs: 500 },
  fault: ({ params }) => ({ kind: "drip", chunkBytes: params.chunkBytes, intervalMs: params.intervalMs }),
});
