import type { SessionObject } from "./session-object.ts";
import { indexStub } from "./index-stub.ts";
import type { Remote } from "./remote.ts";

type SessionApi = Remote<Pick<SessionObject, "create" | "view" | "setScenario" | "reset" | "expireMcpSessions" | "erase" | "fetch" | "journalPage" | "checks" | "journalStream" | "oauth" | "ensureDefault">>;

/** The Durable Object stubs the routes talk to: one per session, and the session index. */
export function sessionStub(env: Env, id: string): SessionApi {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as unknown as SessionApi;
}

export { indexStub };
