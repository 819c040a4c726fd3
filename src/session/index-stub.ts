import type { Remote } from "./remote.ts";
import type { SessionIndex } from "./session-index.ts";

type IndexApi = Remote<Pick<SessionIndex, "put" | "remove" | "list">>;

/**
 * The stub of the one SessionIndex. Apart from the class so that routes reach it without importing
 * `cloudflare:workers` (the app runs in plain Node under `app.request`).
 */
export function indexStub(env: Env): IndexApi {
  return env.INDEX.get(env.INDEX.idFromName("index")) as unknown as IndexApi;
}
