import { ApiError } from "../api-error.ts";
import { indexStub } from "../session/index-stub.ts";
import type { Recording } from "../recording/exchange.ts";
import type { SessionRecord } from "../session/record.ts";
import { sessionStub } from "../session/stubs.ts";

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

/**
 * Creates a session within the cap: the index reserves its place first (count and insert in one call, so a burst
 * of creates cannot pass the cap), then the session's own object stores it. 429 past the cap, 409 for a taken id.
 */
export async function createWithinCap(env: Env, record: SessionRecord, replay?: Recording): Promise<SessionRecord> {
  const index = indexStub(env);
  const cap = maxSessions(env);
  const outcome = await index.reserve({ id: record.id, scenario: record.scenario, createdAt: record.createdAt, proxied: record.upstream !== undefined }, cap);
  if (outcome === "full") throw new ApiError(429, "session_limit", `The server holds its maximum of ${cap} sessions (FAULTLINE_MAX_SESSIONS): delete one first`);
  if (outcome === "exists") throw sessionExists(record.id);
  let created: { record: SessionRecord; created: boolean };
  try {
    created = await sessionStub(env, record.id).create(record, replay);
  } catch (error) {
    await index.remove(record.id);
    throw error;
  }
  // The object held a session the index did not list (the `default` one, made by its first MCP request before the
  // index entry was written): the entry now lists it, and the create is refused as for any taken id.
  if (!created.created) throw sessionExists(record.id);
  return created.record;
}

function sessionExists(id: string): ApiError {
  return new ApiError(409, "session_exists", `A session with id '${id}' already exists`, [{ path: "id", rule: "unique", message: "already exists" }]);
}
