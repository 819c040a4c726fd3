import { RpcError } from "../../wire/jsonrpc.ts";
import type { ElicitParams, ToolContext, ToolDefinition, ToolResult } from "../tool.ts";
import type { TaskBehaviour, TaskToolDefinition } from "./tool.ts";

/**
 * A task-supporting tool. Its inline run (a client without the extension, or a 2025 era, where the extension does
 * not apply) starts the task's work, asks its questions through ctx.elicit, and gives the same outcome at once.
 */
export function defineTaskTool(tool: Omit<ToolDefinition, "run"> & { task: TaskBehaviour }): TaskToolDefinition {
  const run = async (args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> => {
    const plan = await tool.task.start(args, ctx);
    const entries = Object.entries(plan.asks ?? {});
    const answers = await Promise.all(entries.map(([key, request]) => ctx.elicit(key, request.params as unknown as ElicitParams)));
    const outcome = tool.task.finish(args, Object.fromEntries(entries.map(([key], i) => [key, answers[i]])), plan.carried);
    if ("error" in outcome) throw new RpcError(outcome.error.code, outcome.error.message, { data: outcome.error.data });
    return outcome.result;
  };
  return { ...tool, run };
}
