import { z } from "zod";
import { ErrorCode, RpcError } from "../../wire/jsonrpc.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "../tool.ts";
import { advance, answer, cancel, createTaskResult, expired, newTask, read } from "./lifecycle.ts";
import type { TaskRow, TaskStore } from "./store.ts";
import { declaresTasks, isTaskTool, TASKS_EXTENSION, type TaskToolDefinition } from "./tool.ts";

/** What the tasks methods need of the dispatch context (src/mcp/dispatch.ts DispatchContext has it all). */
export interface TaskContext extends ToolContext {
  tools: readonly ToolDefinition[];
  taskStore?: TaskStore;
  now(): number;
}

const TaskIdParams = z.object({ taskId: z.string().min(1) });
const UpdateParams = TaskIdParams.extend({ inputResponses: z.record(z.string(), z.unknown()) });

const REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

function missingExtension(what: string): RpcError {
  return new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension`, { httpStatus: 400, data: REQUIRED });
}

function parse<T>(schema: z.ZodType<T>, params: Record<string, unknown>, method: string): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => `params.${i.path.join(".")}: ${i.message}`).join("; ");
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
}

function storeOf(ctx: TaskContext): TaskStore {
  if (!ctx.taskStore) throw new RpcError(ErrorCode.InternalError, "Internal error: this session keeps no tasks");
  return ctx.taskStore;
}

/** The task as it stands now, stored if it moved on; unknown or expired ids get -32602 (SEP-2663 Protocol Errors). */
function current(ctx: TaskContext, method: string, params: Record<string, unknown>, schema: z.ZodType<{ taskId: string }> = TaskIdParams): TaskRow {
  if (!declaresTasks(ctx.clientCapabilities)) throw missingExtension(method);
  const { taskId } = parse(schema, params, method);
  const store = storeOf(ctx);
  const row = store.get(taskId);
  if (!row) throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found", { data: { taskId } });
  const now = ctx.now();
  if (expired(row, now)) {
    store.delete(taskId);
    throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task has expired", { data: { taskId } });
  }
  const tool = ctx.tools.find((t) => t.name === row.tool);
  const next = advance(row, isTaskTool(tool) ? tool.task : undefined, now);
  if (next !== row) store.put(next);
  return next;
}

type TaskHandler = (params: Record<string, unknown>, ctx: TaskContext) => Promise<Record<string, unknown>>;

/** tasks/get, tasks/update, tasks/cancel (2026-07-28 only). tasks/result and tasks/list stay unknown: -32601. */
export const TASK_HANDLERS: Record<string, TaskHandler> = {
  "tasks/get": async (params, ctx) => {
    const row = current(ctx, "tasks/get", params);
    const { shown, next } = read(row);
    if (next !== row) storeOf(ctx).put(next);
    return shown;
  },
  "tasks/update": async (params, ctx) => {
    const row = current(ctx, "tasks/update", params, UpdateParams);
    const { inputResponses } = parse(UpdateParams, params, "tasks/update");
    const next = answer(row, inputResponses, ctx.now());
    if (next !== row) storeOf(ctx).put(next);
    return {}; // an empty ack: the new state shows on the next tasks/get
  },
  "tasks/cancel": async (params, ctx) => {
    const row = current(ctx, "tasks/cancel", params);
    const next = cancel(row, ctx.now());
    if (next !== row) storeOf(ctx).put(next);
    return {};
  },
};

/**
 * tools/call of a task-supporting tool in 2026-07-28. With the extension declared on the request, the call answers
 * a CreateTaskResult once the task is stored; without it, a "required" tool gets -32021 and an "optional" one runs
 * inline (SEP-2663: a server MUST NOT return CreateTaskResult to a client that did not declare the extension).
 */
export async function taskCall(tool: TaskToolDefinition, args: Record<string, unknown>, ctx: TaskContext): Promise<ToolResult | Record<string, unknown>> {
  if (!declaresTasks(ctx.clientCapabilities)) {
    if (tool.task.support === "required") throw missingExtension(`tool ${tool.name}`);
    return tool.run(args, ctx);
  }
  const store = storeOf(ctx);
  const plan = await tool.task.start(args, ctx);
  const row = newTask(tool.name, args, plan, ctx.now());
  store.create(row); // SEP-2663: MUST NOT return CreateTaskResult until tasks/get would resolve it
  return createTaskResult(row);
}
