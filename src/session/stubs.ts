import type { SessionObject } from "./session-object.ts";
import { indexStub } from "./index-stub.ts";
import type { IndexEntry } from "./session-index.ts";
import type { SessionRecord } from "./record.ts";
import type { Remote } from "./remote.ts";

type SessionApi = Remote<Pick<SessionObject, "create" | "view" | "setScenario" | "reset" | "erase" | "fetch" | "journalPage" | "checks" | "journalStream" | "oauth">>;

/** The Durable Object stubs the routes talk to: one per session, and the session index. */
export function sessionStub(env: Env, id: string): SessionApi {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as unknown as SessionApi;
}

export { indexStub };

/** Stores a new session and lists it; returns the stored record and whether it was new. */
export async function createSession(env: Env, record: SessionRecord) {
  const result = await sessionStub(env, record.id).create(record);
  const entry: IndexEntry = { id: record.id, scenario: record.scenario, createdAt: record.createdAt };
  if (result.created) await indexStub(env).put(entry);
  return result;
}
