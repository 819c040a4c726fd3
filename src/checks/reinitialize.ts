import { sessionGoneReading } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, firstFrom, groupBy, label, rpcError } from "./exchange.ts";

/**
 * 2025-11-25 transports: an answer to a request carrying Mcp-Session-Id that soundly says the session is gone (a 404
 * that is not an unknown method, a 410, a 400 or a challenge-less 401 whose error says the session is unknown: the
 * reading src/classify/session-gone.ts shares with the classifier). A 409, or a 401 with a Bearer challenge, is not one.
 */
function goneReading(x: Exchange): string | undefined {
  if (x.httpMethod !== "POST" || x.sessionId === undefined || x.entry.era === "modern") return undefined;
  const error = rpcError(x);
  const code = errorCode(x);
  const wwwAuthenticate = x.entry.response.headers["www-authenticate"];
  const reading = sessionGoneReading({
    status: x.status,
    ...(error || code !== undefined ? { error: { ...(code !== undefined ? { code } : {}), ...(error ? { message: error.message } : {}) } } : {}),
    ...(wwwAuthenticate !== undefined ? { wwwAuthenticate } : {}),
  });
  if (reading === undefined) return undefined;
  return reading === "not_found" ? "the 404" : reading === "gone" ? "the 410" : `the ${x.status} naming the session as unknown`;
}

/** A client that initializes this many times in a row without using a new id is judged at the last of them. */
const REINIT_CHAIN_BOUND = 16;

/** The POSTs the judgement follows, grouped once: by legacy session id, and those without one (2026-07-28 aside). */
interface Posts {
  byId: Map<string, Exchange[]>;
  unnamed: Exchange[];
}

// 2026-07-28 requests are stateless: not part of any session.
const isSessionPost = (x: Exchange) => x.httpMethod === "POST" && !(x.entry.era === "modern" && x.sessionId === undefined);

function postsOf(all: readonly Exchange[]): Posts {
  return { byId: groupBy(all, (x) => (isSessionPost(x) ? x.sessionId : undefined)), unnamed: all.filter((x) => isSessionPost(x) && x.sessionId === undefined) };
}

/** The first of `ids`' POSTs, or of those without a session id, after `x`. */
function nextPost(posts: Posts, x: Exchange, ...ids: (string | undefined)[]): Exchange | undefined {
  let first: Exchange | undefined;
  for (const list of [...ids.map((id) => (id === undefined ? undefined : posts.byId.get(id))), posts.unnamed]) {
    const y = list?.[firstFrom(list, x.index + 1)];
    if (y !== undefined && (first === undefined || y.index < first.index)) first = y;
  }
  return first;
}

function judge(posts: Posts, gone: Exchange): Observation {
  const dead = gone.sessionId as string;
  const short = dead.length > 12 ? `${dead.slice(0, 8)}…` : dead;
  const what = `${goneReading(gone)} to ${label(gone)} on session ${short}`;
  // Later POSTs of this client: those with the dead id, no id or the new one; other ids belong to other sessions.
  let fresh: string | undefined;
  let initialized: Exchange | undefined;
  let from = gone;
  for (let chain = 0; chain <= REINIT_CHAIN_BOUND; chain++) {
    const x = nextPost(posts, from, dead, fresh);
    if (x === undefined) break;
    if (x.sessionId === dead) {
      const stage = initialized ? `after re-initializing at seq ${initialized.seq}` : "instead of initializing a new session";
      return observe("fail", `After ${what}, the client kept sending the dead Mcp-Session-Id (${label(x)}) ${stage}.`, gone.seq, x.seq);
    }
    if (x.method === "initialize" && x.sessionId === undefined) {
      initialized = x;
      fresh = x.entry.response.headers["mcp-session-id"];
      from = x;
      continue;
    }
    if (!initialized) return observe("fail", `After ${what}, the client sent ${label(x)} without a session instead of a new initialize.`, gone.seq, x.seq);
    if (x.sessionId !== undefined) {
      return observe(
        "pass",
        `After ${what}, the client sent a new initialize without Mcp-Session-Id and then used the new session id (${label(x)}).`,
        gone.seq,
        initialized.seq,
        x.seq,
      );
    }
    return observe(
      "fail",
      `After ${what}, the client initialized again but sent ${label(x)} without the new Mcp-Session-Id.`,
      gone.seq,
      initialized.seq,
      x.seq,
    );
  }
  if (initialized && nextPost(posts, from, dead, fresh) !== undefined) {
    return observe("warning", `After ${what}, the client initialized again more than ${REINIT_CHAIN_BOUND} times in a row without using any new session id (the last at seq ${initialized.seq}).`, gone.seq, initialized.seq);
  }
  if (initialized) {
    return observe(
      "pass",
      `After ${what}, the client sent a new initialize without Mcp-Session-Id (no later request to show it used the new id).`,
      gone.seq,
      initialized.seq,
    );
  }
  return observe(
    "info",
    `No request after ${what}: the client did not start a new session (the v1 and v2 SDK clients throw and keep the old id; reconnecting is up to the application).`,
    gone.seq,
  );
}

/** session-reinitialized: after a legacy session's end (404, or what servers answer instead) the client must initialize again, without the dead id. */
export function reinitializeChecks(all: readonly Exchange[]): Check[] {
  const seen = new Set<string>();
  const first = all.filter((x) => {
    if (goneReading(x) === undefined || seen.has(x.sessionId as string)) return false;
    seen.add(x.sessionId as string);
    return true;
  });
  const posts = postsOf(all);
  return summarize("session-reinitialized", first.map((x) => judge(posts, x)));
}
