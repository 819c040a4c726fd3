import { z } from "zod";

export const TASK_STATUSES = ["working", "input_required", "completed", "cancelled", "failed"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "cancelled", "failed"]);

const InputRequestSchema = z.object({ method: z.string(), params: z.record(z.string(), z.unknown()) });

/** One task as the session keeps it (SQLite, src/session/task-store.ts): everything needed to answer after a restart. */
export const TaskRowSchema = z.object({
  id: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  status: z.enum(TASK_STATUSES),
  statusMessage: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  ttlMs: z.number().int().positive(),
  pollIntervalMs: z.number().int().positive(),
  /** While `working`: when the work is done (then the task asks its questions or finishes). */
  dueAt: z.number(),
  /** Every input request the task will ask once its work is done, by key (keys are unique for the task's life). */
  asks: z.record(z.string(), InputRequestSchema),
  /** The answers delivered by tasks/update, by key. */
  answers: z.record(z.string(), z.unknown()),
  /** The keys of `asks` by round, asked one round after another (TaskPlan.rounds); one round of all keys without it. */
  rounds: z.array(z.array(z.string())).optional(),
  roundMs: z.number().int().nonnegative().optional(),
  /** tasks/get after each tasks/update that still show the answered keys (TaskPlan.staleReads). */
  staleReads: z.number().int().nonnegative().optional(),
  /** The keys answered by the last tasks/update that the next `reads` tasks/get still show (an ack not yet reflected). */
  stale: z.object({ keys: z.array(z.string()), reads: z.number().int().positive() }).optional(),
  /** pollIntervalMs by answer, in a cycle (TaskPlan.intervals), and how many tasks/get have been answered. */
  intervals: z.array(z.number().int().positive()).min(1).optional(),
  reads: z.number().int().nonnegative().optional(),
  /** The server cancels the task at dueAt, with this statusMessage (TaskPlan.serverCancels). */
  serverCancels: z.string().optional(),
  /** Still served after createdAt + ttlMs (TaskPlan.keptPastTtl). */
  keptPastTtl: z.literal(true).optional(),
  /** What the MRTR phase before the task gathered (SEP-2663: resolved synchronously before CreateTaskResult). */
  carried: z.unknown().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});
export type TaskRow = z.infer<typeof TaskRowSchema>;

/** Where a session keeps its tasks; the session's Durable Object implements it in SQLite. */
export interface TaskStore {
  /** Stores a new task; drops expired ones and the oldest past the bound first. Durable when it returns. */
  create(row: TaskRow): void;
  get(id: string): TaskRow | undefined;
  put(row: TaskRow): void;
  delete(id: string): void;
}
