import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { has, isRecord, show, typeName } from "./json.ts";

/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`, 2026-07-28): a request answered with a
 * CreateTaskResult (`resultType: "task"`) instead of its result, and the DetailedTask a `tasks/get` answers.
 */

export const TASK_STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** What a verdict needs of a Task: its id, status and the polling interval asked. */
export interface TaskFacts {
  taskId: string;
  status: string;
  pollIntervalMs?: number;
}

/** The Task fields of a result, or the reason it is unusable (already an error finding). */
export function readTask(result: Record<string, unknown>, findings: Findings, what: string): TaskFacts | { problem: string } {
  const problem = (message: string) => {
    findings.error("TASK_INVALID", message, SpecRef.s26Tasks);
    return { problem: message };
  };
  if (typeof result.taskId !== "string" || result.taskId === "") return problem(`${what} needs taskId (a non-empty string); got ${typeName(result.taskId)}.`);
  if (typeof result.status !== "string" || !TASK_STATUSES.includes(result.status)) {
    return problem(`${what} has status ${show(result.status)}; it MUST be one of ${TASK_STATUSES.join(", ")}.`);
  }
  for (const field of ["createdAt", "lastUpdatedAt"]) {
    if (typeof result[field] !== "string") findings.warning("TASK_FIELD_MISSING", `${what} lacks ${field} (an ISO 8601 string); got ${typeName(result[field])}.`, SpecRef.s26Tasks);
  }
  if (!(typeof result.ttlMs === "number" || result.ttlMs === null)) findings.warning("TASK_FIELD_MISSING", `${what} lacks ttlMs (a number of ms, or null for unlimited); got ${typeName(result.ttlMs)}.`, SpecRef.s26Tasks);
  const interval = result.pollIntervalMs;
  const usable = typeof interval === "number" && Number.isSafeInteger(interval) && interval >= 0;
  if (interval !== undefined && !usable) findings.warning("TASK_POLL_INTERVAL_INVALID", `pollIntervalMs is ${show(interval)}; it is an integer number of ms.`, SpecRef.s26Tasks);
  return { taskId: result.taskId, status: result.status, ...(usable ? { pollIntervalMs: interval } : {}) };
}

/** A CreateTaskResult carries the Task alone: the result, error or questions come through tasks/get. */
export function createdTaskNotes(result: Record<string, unknown>, findings: Findings): void {
  const extra = ["result", "error", "inputRequests", "requestState"].filter((field) => has(result, field));
  if (extra.length > 0) findings.warning("TASK_CREATED_WITH_PAYLOAD", `The CreateTaskResult carries ${extra.join(", ")}; those come through tasks/get, and clients read only the Task here.`, SpecRef.s26Tasks);
}

/** "every 500 ms" from the task's pollIntervalMs, or the hint to pick a modest interval. */
export function pollEvery(task: TaskFacts): string {
  return task.pollIntervalMs !== undefined ? `every pollIntervalMs (${task.pollIntervalMs} ms; it may change with each answer)` : "at a modest interval (the server suggested no pollIntervalMs)";
}

/** The error of a failed task, when it is a JSON-RPC error object. */
export function taskError(result: Record<string, unknown>): { code: number; message: string; data?: unknown } | undefined {
  const error = result.error;
  if (!isRecord(error) || !Number.isSafeInteger(error.code) || typeof error.message !== "string") return undefined;
  return { code: error.code as number, message: error.message, ...(has(error, "data") ? { data: error.data } : {}) };
}
