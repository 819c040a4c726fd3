import { TERMINAL, type TaskRow } from "./store.ts";
import type { TaskBehaviour, TaskPlan } from "./tool.ts";

/** Tasks live at most this long (ttlMs) and are polled no faster than this, unless a scenario says otherwise. */
export const DEFAULT_TTL_MS = 10 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 500;

export function newTask(tool: string, args: Record<string, unknown>, plan: TaskPlan, now: number): TaskRow {
  return {
    id: crypto.randomUUID(), // SEP-2663 security: task ids are bearer handles, so they must be unguessable
    tool,
    args,
    status: "working",
    createdAt: now,
    updatedAt: now,
    ttlMs: plan.ttlMs ?? DEFAULT_TTL_MS,
    pollIntervalMs: plan.intervals?.[0] ?? plan.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    dueAt: now + plan.workMs,
    asks: plan.asks ?? {},
    answers: {},
    ...(plan.carried === undefined ? {} : { carried: plan.carried }),
    ...(plan.rounds === undefined ? {} : { rounds: plan.rounds, roundMs: plan.roundMs ?? 0 }),
    ...(plan.staleReads ? { staleReads: plan.staleReads } : {}),
    ...(plan.intervals && plan.intervals.length > 0 ? { intervals: plan.intervals, reads: 0 } : {}),
    ...(plan.serverCancels === undefined ? {} : { serverCancels: plan.serverCancels }),
    ...(plan.keptPastTtl ? { keptPastTtl: true as const } : {}),
  };
}

export function expired(row: TaskRow, now: number): boolean {
  return row.keptPastTtl !== true && now >= row.createdAt + row.ttlMs;
}

/** The keys still waiting for an answer: those of the first round with one unanswered (every key without rounds). */
export function outstanding(row: TaskRow): string[] {
  const waiting = (keys: readonly string[]) => keys.filter((key) => key in row.asks && !(key in row.answers));
  if (row.rounds === undefined) return waiting(Object.keys(row.asks));
  for (const round of row.rounds) {
    const open = waiting(round);
    if (open.length > 0) return open;
  }
  return [];
}

/**
 * The task as it stands at `now`. The work is a deadline, not a running promise, so the state is the same whether
 * or not the server restarted in between: working until dueAt, then input_required while a key is unanswered, then
 * the outcome that `finish` gives.
 */
export function advance(row: TaskRow, behaviour: TaskBehaviour | undefined, now: number): TaskRow {
  if (TERMINAL.has(row.status) || row.status === "input_required" || now < row.dueAt) return row;
  if (outstanding(row).length > 0) return { ...row, status: "input_required", statusMessage: "Waiting for input: see inputRequests", updatedAt: now };
  if (row.serverCancels !== undefined) return { ...row, status: "cancelled", statusMessage: row.serverCancels, updatedAt: now };
  if (!behaviour) return { ...row, status: "failed", error: { code: -32603, message: `Internal error: tool ${row.tool} is gone` }, updatedAt: now };
  const outcome = behaviour.finish(row.args, row.answers, row.carried);
  if ("error" in outcome) return { ...row, status: "failed", statusMessage: outcome.error.message, error: outcome.error, updatedAt: now };
  const { statusMessage: _stale, ...rest } = row; // "resuming" no longer describes a finished task
  return { ...rest, status: "completed", result: { ...outcome.result }, updatedAt: now };
}

/**
 * tasks/update: keeps the answers to outstanding keys (others are ignored, SEP-2663), resumes once the round asked
 * is answered (working `roundMs` more when another round follows). With `staleReads`, the next tasks/get still show
 * the keys just answered.
 */
export function answer(row: TaskRow, responses: Record<string, unknown>, now: number): TaskRow {
  if (row.status !== "input_required") return row;
  const asked = outstanding(row);
  const waiting = new Set(asked);
  const taken = Object.entries(responses).filter(([key]) => waiting.has(key));
  if (taken.length === 0) return row;
  const stale = row.staleReads ? { stale: { keys: [...(row.stale?.keys ?? []), ...taken.map(([key]) => key)], reads: row.staleReads } } : {};
  const next = { ...row, answers: { ...row.answers, ...Object.fromEntries(taken) }, updatedAt: now, ...stale };
  if (!asked.every((key) => key in next.answers)) return next;
  const more = outstanding(next).length > 0 ? (row.roundMs ?? 0) : 0;
  return { ...next, status: "working", statusMessage: "Input received; resuming", dueAt: now + more };
}

export function cancel(row: TaskRow, now: number): TaskRow {
  if (TERMINAL.has(row.status)) return row;
  const { stale: _shown, ...rest } = row; // a cancelled task shows that at once
  return { ...rest, status: "cancelled", statusMessage: "Cancelled by tasks/cancel", updatedAt: now };
}

/**
 * tasks/get: the DetailedTask to answer, and the row to keep. While a stale read is owed, the answer is the
 * snapshot from before the last tasks/update: input_required, its inputRequests still holding the keys just answered
 * (the same requests under the same keys, so a client that tracks its keys answers none twice).
 */
export function read(row: TaskRow): { shown: Record<string, unknown>; next: TaskRow } {
  // Each answer asks the next pollIntervalMs of the cycle (TaskPlan.intervals), so every tasks/get changes the row.
  return readOnce(row.intervals === undefined ? row : nextInterval(row, row.intervals));
}

function nextInterval(row: TaskRow, intervals: readonly number[]): TaskRow {
  const reads = (row.reads ?? 0) + 1;
  return { ...row, reads, pollIntervalMs: intervals[reads % intervals.length]! };
}

function readOnce(row: TaskRow): { shown: Record<string, unknown>; next: TaskRow } {
  if (row.stale === undefined || row.status === "cancelled") return { shown: detailedTask(row), next: row };
  const keys = [...row.stale.keys, ...(row.status === "input_required" ? outstanding(row) : [])];
  const shown = { ...taskFields(row), status: "input_required", statusMessage: "Waiting for input: see inputRequests", inputRequests: Object.fromEntries(keys.map((key) => [key, row.asks[key]])) };
  const { stale, ...rest } = row;
  return { shown, next: stale.reads > 1 ? { ...rest, stale: { ...stale, reads: stale.reads - 1 } } : rest };
}

/** The Task fields every shape carries (SEP-2663 `Task`). */
function taskFields(row: TaskRow): Record<string, unknown> {
  return {
    taskId: row.id,
    status: row.status,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    createdAt: new Date(row.createdAt).toISOString(),
    lastUpdatedAt: new Date(row.updatedAt).toISOString(),
    ttlMs: row.ttlMs,
    pollIntervalMs: row.pollIntervalMs,
  };
}

/** CreateTaskResult: flat Result & Task with resultType "task"; never result, error or inputRequests. */
export function createTaskResult(row: TaskRow): Record<string, unknown> {
  return { resultType: "task", ...taskFields(row) };
}

/**
 * tasks/get: the DetailedTask for the status, with resultType "complete" (added by the result shaper). The `result`
 * of a completed task is the CallToolResult the call would have answered, and a 2026-07-28 Result carries its own
 * `resultType: "complete"` (schema 2026-07-28, Result: "Servers implementing this protocol version MUST include this
 * field"); the ext-tasks client rejects a result without it.
 */
export function detailedTask(row: TaskRow): Record<string, unknown> {
  const fields = taskFields(row);
  if (row.status === "input_required") return { ...fields, inputRequests: Object.fromEntries(outstanding(row).map((key) => [key, row.asks[key]])) };
  if (row.status === "completed") return { ...fields, result: { resultType: "complete", ...row.result } };
  if (row.status === "failed") return { ...fields, error: row.error ?? { code: -32603, message: "Internal error" } };
  return fields;
}
