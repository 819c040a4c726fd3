import { z } from "zod";
import { defineScenario } from "../src/mcp/scenario.ts";

/**
 * Answers from a recording instead of a handler (src/recording/): the session's MCP endpoint replays what a recorded
 * session, or an uploaded HAR, answered. It decides no fault itself; a session's `faults` adds one on top.
 */
export default defineScenario({
  id: "replay",
  title: "Replay a recording",
  summary: "Answers every request from a recorded session or an uploaded HAR, matched by method, tool and arguments, with no upstream; add faults on top with the session's \"faults\".",
  layer: "application",
  answersFromRecording: true,
  params: z.object({
    from: z.string().regex(/^[a-z0-9-]{3,64}$/, "must be a session id").optional().describe("The id of a session created with \"record\": true"),
    har: z.string().regex(/^[0-9a-f]{32}$/, "must be an id from POST /api/recordings").optional().describe("The id of a HAR uploaded with POST /api/recordings"),
    timing: z.enum(["recorded", "fast"]).default("recorded").describe("Send each answer and SSE event at its recorded time, or at once"),
  }),
  judging: {
    // A recording answers as the recorded server did; the session's own "faults" add the trouble, judged as anywhere.
    checks: ["non-idempotent-not-replayed", "http-retry-after-honoured", "http-retry-backoff", "http-retry-bounded"],
    exercisedBy: "answers",
    cannotTell: "in advance which checks apply: that depends on the recording's answers and the session's faults",
    needsOutside: 'it answers from a recording, which a session with "record": true (or an uploaded HAR) must give it first',
  },
  example: { from: "my-recorded-session", timing: "fast" },
});
