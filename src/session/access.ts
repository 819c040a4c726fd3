import type { SessionObject, SessionRecord } from "./session-object.ts";
import type { SessionIndex } from "./session-index.ts";

/** The RPC surface of a stub; Workers' RPC types lose `unknown`-typed fields, so the promised types are named here. */
type Remote<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

export const DEFAULT_SESSION_ID = "default";

/** The absolute URL of a session's MCP endpoint. */
export function mcpUrl(origin: string, id: string): string {
  return `${origin}/s/${id}/mcp`;
}

type SessionApi = Remote<Pick<SessionObject, "create" | "view" | "setScenario" | "reset" | "erase" | "fetch" | "journalPage" | "checks" | "journalStream">>;
type IndexApi = Remote<Pick<SessionIndex, "put" | "remove" | "list">>;

export function sessionStub(env: Env, id: string): SessionApi {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as unknown as SessionApi;
}

export function indexStub(env: Env): IndexApi {
  return env.INDEX.get(env.INDEX.idFromName("index")) as unknown as IndexApi;
}

/** Stores a new session and lists it; returns the stored record and whether it was new. */
export async function createSession(env: Env, record: SessionRecord) {
  const result = await sessionStub(env, record.id).create(record);
  if (result.created) await indexStub(env).put({ id: record.id, scenario: record.scenario, createdAt: record.createdAt });
  return result;
}

/** The `default` session runs baseline; its Durable Object creates it on its first MCP request (see SessionObject.fetch). */
export function defaultSessionRecord(): SessionRecord {
  return { id: DEFAULT_SESSION_ID, scenario: "baseline", params: { delayMs: 0, responseMode: "json" }, createdAt: new Date().toISOString() };
}
