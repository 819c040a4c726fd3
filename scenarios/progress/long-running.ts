import { z } from "zod";
import { PROGRESS_BOUND_MS } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { select, SelectionShape } from "../../src/scenario-kit/select.ts";

const Params = z
  .object({
    ...SelectionShape,
    tool: z.string().min(1).max(200).optional().describe("Only tools/call of this tool (default: every selected request)"),
    ms: z.number().int().min(0).max(600_000).default(90_000).describe("How long each selected call runs before its answer; past FAULTLINE_MAX_RESPONSE_SECONDS the response is cut at that deadline"),
    intervalMs: z.number().int().min(10).max(60_000).default(5_000).describe("Pause between notifications/progress, sent only when the request carries _meta.progressToken"),
    expectPatienceMs: z.number().int().min(0).max(600_000).default(90_000).describe("A client that leaves a call earlier than this while progress keeps arriving fails progress-patience"),
    expectBoundMs: z.number().int().min(0).max(600_000).default(PROGRESS_BOUND_MS).describe("A client still waiting on a call at this point fails progress-bounded (at least expectPatienceMs)"),
  })
  .refine((p) => p.expectBoundMs >= p.expectPatienceMs, { path: ["expectBoundMs"], message: "expectBoundMs must be at least expectPatienceMs: a client cannot be asked to wait longer than it may" });

export default defineScenario({
  id: "progress.long_running",
  title: "Long-running tool with progress",
  summary:
    "Selected calls (tools/call by default, or only those of `tool`) run for `ms` milliseconds on an SSE stream before the real answer. When the request carries `_meta.progressToken` the stream carries notifications/progress for it every `intervalMs` (progress counts up to total), in every version on the POST's own response stream (2026-07-28 basic/patterns/progress: only there, never on subscriptions/listen); without a token the server sends no progress, only SSE comments. The checks judge whether the client asked for progress, whether it stayed while progress arrived (until `expectPatienceMs`), and whether it still gave up by `expectBoundMs`.",
  layer: "interaction",
  params: Params,
  judging: { checks: ["progress-token-sent", "progress-patience", "progress-bounded", "timeout-cancelled"] },
  example: { ms: 10_000, intervalMs: 1_000, expectPatienceMs: 10_000, nth: 1 },
  decide: ({ params, request, counters }) => {
    if (params.tool !== undefined && request.toolName !== params.tool) return undefined;
    const reason = select(params, request, counters);
    if (reason === undefined) return undefined;
    return { fault: { kind: "progress", ms: params.ms, intervalMs: params.intervalMs, patienceMs: params.expectPatienceMs, boundMs: params.expectBoundMs }, reason };
  },
});
