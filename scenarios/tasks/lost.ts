import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { defineTaskTool } from "../../src/mcp/tasks/define.ts";
import { text } from "../../src/mcp/tool.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true } as const;

/** What the server answers for a task id it does not know (src/mcp/tasks/handlers.ts), here for one it lost. */
export const LOST_MESSAGE = "Failed to retrieve task: Task not found";

/**
 * A task the server forgets while it works, as after a restart of a server that kept its tasks in memory: after
 * `after` tasks/* requests about a task (its polls), every tasks/* request about it gets -32602 "Task not found", the answer to an
 * unknown taskId (SEP-2663: servers SHOULD return a JSON-RPC error for a taskId that is not a known task). Only the
 * first `tasks` task ids the client polls are lost; a task it creates again after that lives on and completes. A
 * client should stop polling the lost id, and create the task again or report the loss, not poll it forever.
 */
export default defineScenario({
  id: "tasks.lost",
  title: "A task the server lost while it worked",
  summary:
    "Serves the task tool `long_job` (SEP-2663, 2026-07-28, task required; it works `seconds`, default 5, then completes). After `after` tasks/* requests about a task (its polls), every tasks/* request about it gets -32602 \"Task not found\", as a server that lost its tasks in a restart answers; only the first `tasks` task ids the client polls are lost, so a task created again completes. A client should re-create the task or report the loss, not poll the lost id forever.",
  layer: "application",
  params: z.object({
    after: z.number().int().min(0).max(100).default(2).describe("tasks/* requests about a task answered as usual before it is lost (0: lost at once)"),
    tasks: z.number().int().min(1).max(100).default(1).describe("How many tasks are lost: the first ones the client polls"),
  }),
  judging: { checks: ["task-polling-bounded", "task-polled-to-terminal", "task-mcp-name-sent"] },
  example: { after: 2, tasks: 1 },
  tools: () => [
    defineTaskTool({
      name: "long_job",
      description: "Task required: works `seconds` seconds (default 5), then returns a result naming `label`. The server may lose it while it works.",
      args: z.object({ seconds: z.number().min(0).max(3600).default(5), label: z.string().default("job") }),
      annotations: READ_ONLY,
      task: {
        support: "required",
        start: async (args) => ({ workMs: Number(args.seconds) * 1000 }),
        finish: (args) => ({ result: text(`Finished ${String(args.label)} after ${String(args.seconds)} s`) }),
      },
    }),
  ],
  decide: ({ params, request, counters }) => {
    const method = request.method;
    if (request.era !== "modern" || (method !== "tasks/get" && method !== "tasks/update" && method !== "tasks/cancel")) return undefined;
    const taskId = request.headers["mcp-name"] ?? "";
    const n = counters.count(`requests:${taskId}`);
    // Whether the task is one of the lost: decided at its first tasks/* request, when `mark:<id>` is counted twice
    // for a lost task and once for a kept one; from then on it is counted once a request, so it stays one ahead of
    // `requests:<id>` for a lost task and level with it for a kept one.
    let marks = counters.count(`mark:${taskId}`);
    if (n === 1 && counters.count("tasks-seen") <= params.tasks) marks = counters.count(`mark:${taskId}`);
    if (marks === n || n <= params.after) return undefined;
    return {
      fault: { kind: "jsonrpc_error", code: -32602, message: LOST_MESSAGE, data: { taskId }, httpStatus: 200 },
      reason: `${method} #${n} of task ${taskId}, lost after ${params.after} (one of the first ${params.tasks} tasks polled)`,
    };
  },
});
