/** The most sessions a server holds unless FAULTLINE_MAX_SESSIONS says otherwise. */
export const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * FAULTLINE_MAX_SESSIONS as a positive integer, or the default. Creating past it answers 429: each session is a
 * Durable Object with its own SQLite file, so the cap bounds the disk a caller allowed to create sessions can fill.
 */
export function maxSessions(vars: { FAULTLINE_MAX_SESSIONS?: string }): number {
  const n = Number(vars.FAULTLINE_MAX_SESSIONS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_SESSIONS;
}
