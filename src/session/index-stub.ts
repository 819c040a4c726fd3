import type { SessionIndex } from "./session-index.ts";
import type { Remote } from "./remote.ts";

type IndexApi = Remote<Pick<SessionIndex, "put" | "reserve" | "has" | "remove" | "page" | "count" | "audit" | "auditPage" | "reserveUpload" | "removeUpload">>;

/**
 * The stub of the one SessionIndex. Apart from the class so that the app (src/app.ts), which Node imports in the
 * in-process tests, reaches it without importing `cloudflare:workers`.
 */
export function indexStub(env: Env): IndexApi {
  return env.INDEX.get(env.INDEX.idFromName("index")) as unknown as IndexApi;
}
