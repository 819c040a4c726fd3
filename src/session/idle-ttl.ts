/** How long a session may sit unused before its alarm deletes it, unless FAULTLINE_SESSION_TTL_HOURS says otherwise. */
export const DEFAULT_SESSION_TTL_HOURS = 168;

/** The longest gap between two writes of a session's last-use time: at most one write per hour per busy session. */
const MAX_STAMP_GAP_MS = 3_600_000;

/** FAULTLINE_SESSION_TTL_HOURS in milliseconds: a positive number of hours (fractions allowed), or the default. */
export function sessionTtlMs(vars: { FAULTLINE_SESSION_TTL_HOURS?: string }): number {
  const hours = Number(vars.FAULTLINE_SESSION_TTL_HOURS);
  return (Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_SESSION_TTL_HOURS) * 3_600_000;
}

/**
 * How stale the stored last-use time may get before a use writes it again: a tenth of the TTL, at most an hour. Uses
 * in between only move a number in memory, so a busy session does not write on every request.
 */
export function stampGapMs(ttlMs: number): number {
  return Math.min(ttlMs / 10, MAX_STAMP_GAP_MS);
}

/**
 * What the alarm does. `lastUseMs` is the last use this instance saw (exact, when it saw one); otherwise the stored
 * stamp plus the gap by which it may lag, so a session is never deleted before it has been idle for the whole TTL.
 */
export function alarmDecision(now: number, ttlMs: number, last: { inMemoryMs?: number; storedMs?: number; createdMs: number }): { expire: true } | { expire: false; nextAlarmMs: number } {
  const lastUse = last.inMemoryMs ?? (last.storedMs ?? last.createdMs) + stampGapMs(ttlMs);
  const due = lastUse + ttlMs;
  return now >= due ? { expire: true } : { expire: false, nextAlarmMs: due };
}
