import type { ToolContext, ToolDefinition, ToolResult } from "../tool.ts";

/** A server-to-client request a task waits on (the shape of src/mcp/inputs.ts InputRequest, which imports dispatch). */
export type InputRequest = { method: string; params: Record<string, unknown> };

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What a task-supporting tool plans when it starts: how long it works, what it asks then, what it carried in. */
export interface TaskPlan {
  workMs: number;
  asks?: Record<string, InputRequest>;
  carried?: unknown;
  /**
   * The keys of `asks` in rounds, asked one round after another (all at once without it); between rounds the task
   * works `roundMs` more. Keys stay unique over the task's life (SEP-2663).
   */
  rounds?: string[][];
  roundMs?: number;
  /**
   * How many tasks/get after each tasks/update still show the answered keys (SEP-2663: the ack is eventually
   * consistent, the status may not reflect the responses yet); 0 without it.
   */
  staleReads?: number;
  /** The task's ttlMs and pollIntervalMs, when not the defaults (DEFAULT_TTL_MS, DEFAULT_POLL_INTERVAL_MS). */
  ttlMs?: number;
  pollIntervalMs?: number;
  /** pollIntervalMs changing from one answer to the next: the creation asks the first, each tasks/get the next, in a cycle. */
  intervals?: number[];
  /** The server cancels the task itself at the end of its work, with this statusMessage (SEP-2663 status `cancelled`). */
  serverCancels?: string;
  /** The server keeps answering the task past its ttlMs instead of expiring it (a task that outlives its deadline). */
  keptPastTtl?: boolean;
}

/** How a task ends: the tool's result (isError included), or a JSON-RPC error (status failed). */
export type TaskOutcome = { result: ToolResult } | { error: { code: number; message: string; data?: unknown } };

export interface TaskBehaviour {
  /** "required": a client without the extension gets -32021; "optional": it gets the result inline. */
  support: "optional" | "required";
  /** Runs when the call arrives; may ask through ctx.elicit (the MRTR phase, before the task exists). */
  start(args: Record<string, unknown>, ctx: ToolContext): Promise<TaskPlan>;
  /** Works out the outcome from the arguments and the answers; pure, so it gives the same after a restart. */
  finish(args: Record<string, unknown>, answers: Record<string, unknown>, carried: unknown): TaskOutcome;
}

/** A tool that may answer tools/call with a task (SEP-2663). */
export interface TaskToolDefinition extends ToolDefinition {
  task: TaskBehaviour;
}

export function isTaskTool(tool: ToolDefinition | undefined): tool is TaskToolDefinition {
  return Boolean(tool && "task" in tool && (tool as TaskToolDefinition).task);
}

/** SEP-2663: the client declares the extension in the request's own capabilities; nothing earlier counts. */
export function declaresTasks(clientCapabilities: Record<string, unknown>): boolean {
  const extensions = clientCapabilities.extensions;
  return Boolean(extensions && typeof extensions === "object" && (extensions as Record<string, unknown>)[TASKS_EXTENSION]);
}
