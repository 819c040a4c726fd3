import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { defineTaskTool } from "../../src/mcp/tasks/define.ts";
import type { TaskPlan } from "../../src/mcp/tasks/tool.ts";
import { text } from "../../src/mcp/tool.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true } as const;

export const LIFECYCLE_VARIANTS = ["interval_changes", "overdue", "failed", "cancelled", "expires"] as const;
type Variant = (typeof LIFECYCLE_VARIANTS)[number];

const Params = z.object({
  variant: z.enum(LIFECYCLE_VARIANTS).default("interval_changes").describe("What the task does (see docs/tasks.md)"),
  seconds: z.number().min(0).max(3600).default(3).describe("How long the task works before its end (interval_changes, failed, cancelled); expires: 0.2 s"),
  intervals: z.array(z.number().int().min(10).max(60_000)).min(1).max(20).default([500, 2000, 250]).describe("interval_changes: the pollIntervalMs of the creation and of each tasks/get answer after it, in a cycle"),
  ttlMs: z.number().int().min(100).max(600_000).default(1000).describe("expires and overdue: the task's ttlMs"),
});
type Params = z.infer<typeof Params>;

/** The task's plan for each variant (the tool's `seconds` argument is not read: the scenario's params say it all). */
function plan(params: Params): TaskPlan {
  const workMs = params.seconds * 1000;
  const variants: Record<Variant, TaskPlan> = {
    interval_changes: { workMs, intervals: params.intervals },
    // Works for an hour, past a short ttlMs, and is answered `working` all along instead of expiring.
    overdue: { workMs: 3_600_000, ttlMs: params.ttlMs, keptPastTtl: true },
    failed: { workMs },
    cancelled: { workMs, serverCancels: "Cancelled by the server: the job was withdrawn" },
    // Done in 0.2 s, but gone at ttlMs, sooner than the pollIntervalMs it asks: a client polling as asked finds it expired.
    expires: { workMs: 200, ttlMs: params.ttlMs, pollIntervalMs: params.ttlMs + 500 },
  };
  return variants[params.variant];
}

/**
 * SEP-2663 task lifecycles a client must cope with, one per variant: a pollIntervalMs that changes between answers
 * ("MAY change over the lifetime of a task"), a task still `working` past its ttlMs ("clients MAY treat the TTL as a
 * backstop"), the terminal `failed` (a JSON-RPC error) and `cancelled` (by the server), and a result gone at its
 * ttlMs before a client polling as asked can fetch it ("the server may discard the task after the TTL elapses").
 */
export default defineScenario({
  id: "tasks.lifecycle",
  title: "Task lifecycles: a changing interval, overdue, failed, cancelled, expired",
  summary:
    "Serves the task tool `job` (SEP-2663, 2026-07-28, task required) whose task does what `variant` says: `interval_changes` (pollIntervalMs cycles through `intervals` from one answer to the next, then completes after `seconds`), `overdue` (still `working` past its `ttlMs`, never expiring), `failed` (failed with JSON-RPC error -32603 after `seconds`), `cancelled` (cancelled by the server after `seconds`), `expires` (completes at once but is gone at `ttlMs`, sooner than the pollIntervalMs it asks). Judged by the task checks.",
  layer: "application",
  params: Params,
  judging: {
    checks: ["task-poll-interval-honoured", "task-polled-to-terminal", "task-not-polled-after-cancel", "task-polling-bounded", "task-mcp-name-sent"],
    exercisedBy: "answers",
    cannotTell: "whether a client that stopped polling an overdue or expired task told its user: the journal shows only that it stopped",
  },
  example: { variant: "interval_changes", intervals: [500, 2000, 250] },
  tools: (params) => [
    defineTaskTool({
      name: "job",
      description: `Task required: a job whose task is ${params.variant.replace("_", " ")} (tasks.lifecycle); returns a result naming \`label\` when it completes.`,
      args: z.object({ label: z.string().default("job") }),
      annotations: READ_ONLY,
      task: {
        support: "required",
        start: async () => plan(params),
        finish: (args) =>
          params.variant === "failed"
            ? { error: { code: -32603, message: "Internal error: the job crashed (tasks.lifecycle failed)" } }
            : { result: text(`Finished ${String(args.label)}`) },
      },
    }),
  ],
});
