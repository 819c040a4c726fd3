import { z } from "zod";
import { RetryOriginSchema } from "../journal/retry-origin.ts";
import type { CheckId } from "../mcp/check-ids.ts";

export const CheckStatusSchema = z.enum(["pass", "fail", "warning", "info"]);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** One judgement of the client: a stable kebab-case id, a status, a specific message and the seqs that prove it. */
export const CheckSchema = z.object({
  id: z.string(),
  status: CheckStatusSchema,
  message: z.string(),
  evidence: z.array(z.number().int()),
  /** Every retry behind the check, with where it came from as the wire reads it; only on checks that judge retries. */
  retries: z.array(z.object({ seq: z.number().int(), retryOf: z.number().int(), retryOrigin: RetryOriginSchema, reading: z.string() })).optional(),
});
export type Check = z.infer<typeof CheckSchema>;

/** One observation behind a check: an episode (a fault and what the client did next), judged on its own. */
export interface Observation {
  status: CheckStatus;
  message: string;
  evidence: number[];
  retries?: RetrySeen[];
}

export type RetrySeen = NonNullable<Check["retries"]>[number];

/** The same observation, naming the retry it judged. */
export function withRetry(o: Observation, retry: RetrySeen | undefined): Observation {
  return retry ? { ...o, retries: [...(o.retries ?? []), retry] } : o;
}

// "info" means the client did nothing to judge, so it ranks below a pass.
const RANK: Readonly<Record<CheckStatus, number>> = { info: 0, pass: 1, warning: 2, fail: 3 };
const MAX_MESSAGES = 3;

export function observe(status: CheckStatus, message: string, ...evidence: number[]): Observation {
  return { status, message, evidence };
}

/**
 * Folds the observations of one check into the check: the worst status wins, and the message and evidence
 * are those of the observations with that status. No observations, no check (its trigger never happened).
 */
export function summarize(id: CheckId, observations: readonly Observation[]): Check[] {
  if (observations.length === 0) return [];
  const status = observations.reduce<CheckStatus>((worst, o) => (RANK[o.status] > RANK[worst] ? o.status : worst), "info");
  const chosen = observations.filter((o) => o.status === status);
  // Episodes that read alike are said once, with how often (never "… then succeeded. … then succeeded.").
  const times = new Map<string, number>();
  for (const o of chosen) times.set(o.message, (times.get(o.message) ?? 0) + 1);
  const distinct = [...times];
  const shown = distinct.slice(0, MAX_MESSAGES).map(([message, n]) => (n === 1 ? message : `${message} (${n} times)`));
  if (distinct.length > MAX_MESSAGES) shown.push(`… and ${distinct.length - MAX_MESSAGES} more like these.`);
  const evidence = [...new Set(chosen.flatMap((o) => o.evidence))].sort((a, b) => a - b);
  // Every retry found is reported, whatever the status of its observation.
  const retries = [...new Map(observations.flatMap((o) => o.retries ?? []).map((r) => [r.seq, r])).values()].sort((a, b) => a.seq - b.seq);
  return [{ id, status, message: shown.join(" "), evidence, ...(retries.length > 0 ? { retries } : {}) }];
}
