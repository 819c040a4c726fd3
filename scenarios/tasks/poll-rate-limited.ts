import { z } from "zod";
import { BodyKindSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { defineTaskTool } from "../../src/mcp/tasks/define.ts";
import { text } from "../../src/mcp/tool.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true } as const;

/**
 * SEP-2663 Task Polling: "Servers MAY rate-limit clients polling more frequently than the recorded pollIntervalMs".
 * The session serves one task tool, `long_job`; every `every`th tasks/get of each task (counted per Mcp-Name, which
 * is the taskId) is answered 429 with Retry-After, whatever its timing, so that a client meets the limit it would
 * meet by polling too fast. A client should wait as Retry-After asks, poll the same task again, and go on until a
 * terminal status.
 */
export default defineScenario({
  id: "tasks.poll_rate_limited",
  title: "Task polls answered 429 with Retry-After",
  summary:
    "Serves the task tool `long_job` (SEP-2663, 2026-07-28): every `every`th tasks/get of each task gets 429 Too Many Requests with Retry-After `seconds`, as a server that rate-limits polling may answer (SEP-2663: servers MAY rate-limit clients polling faster than pollIntervalMs). `long_job` works for its own `seconds` argument (default 2), then completes.",
  layer: "application",
  params: z.object({
    every: z.number().int().min(1).default(2).describe("Every kth tasks/get of each task gets 429 (1: every poll, until the client gives up)"),
    seconds: z.number().int().min(0).max(3600).default(1).describe("Retry-After, in seconds"),
    body: BodyKindSchema.default("jsonrpc"),
  }),
  judging: { checks: ["http-retry-after-honoured", "http-retry-bounded", "inflight-not-amplified", "task-poll-interval-honoured", "task-polled-to-terminal", "task-mcp-name-sent"] },
  example: { every: 2, seconds: 1 },
  tools: () => [
    defineTaskTool({
      name: "long_job",
      description: "Task required: works `seconds` seconds (default 2), then returns a result naming `label`. Its polls may be rate-limited.",
      args: z.object({ seconds: z.number().min(0).max(3600).default(2), label: z.string().default("job") }),
      annotations: READ_ONLY,
      task: {
        support: "required",
        start: async (args) => ({ workMs: Number(args.seconds) * 1000 }),
        finish: (args) => ({ result: text(`Finished ${String(args.label)} after ${String(args.seconds)} s`) }),
      },
    }),
  ],
  decide: ({ params, request, counters }) => {
    if (request.era !== "modern" || request.method !== "tasks/get") return undefined;
    const taskId = request.headers["mcp-name"] ?? "";
    const n = counters.count(`poll:${taskId}`);
    if (n % params.every !== 0) return undefined;
    return { fault: { kind: "rate_limited", retryAfter: params.seconds, body: params.body }, reason: `tasks/get #${n} of task ${taskId} (every=${params.every})` };
  },
});
