import { type Check, type Observation, observe, summarize } from "./check.ts";
import { answerOf, errorCode, type Exchange, firstFrom, groupBy, label, rpcError, sameCall } from "./exchange.ts";
import { MAX_RESENDS } from "./bad-answer.ts";

const INVALID_REQUEST = -32600;

/**
 * A legacy session's 400 -32600 that says the Mcp-Session-Id header is required, to a request that carried one (as
 * when a proxy strips the header): the session is still valid, so the client may resend with it or start a new one.
 */
function isIdRefused(x: Exchange): boolean {
  if (!x.isRequest || x.status !== 400 || !x.sessionId || x.entry.era === "modern") return false;
  return errorCode(x) === INVALID_REQUEST && /mcp-session-id/i.test(rpcError(x)?.message ?? "");
}

const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** The POSTs the judgement looks at after a refusal, grouped once so that each lookup is a binary search. */
interface Posts {
  /** Every POST on each legacy session id. */
  byId: Map<string, Exchange[]>;
  /** The requests on each legacy session id. */
  requestsById: Map<string, Exchange[]>;
  /** Legacy requests without Mcp-Session-Id (initialize among them). */
  unnamedRequests: Exchange[];
  /** Legacy POSTs without Mcp-Session-Id other than initialize. */
  unnamedOthers: Exchange[];
}

// 2026-07-28 requests are stateless: not part of any session.
const isSessionPost = (x: Exchange) => x.httpMethod === "POST" && !(x.entry.era === "modern" && x.sessionId === undefined);

function postsOf(all: readonly Exchange[]): Posts {
  const named = (x: Exchange) => (isSessionPost(x) ? x.sessionId : undefined);
  const unnamed = all.filter((x) => isSessionPost(x) && x.sessionId === undefined);
  return {
    byId: groupBy(all, named),
    requestsById: groupBy(all, (x) => (x.isRequest ? named(x) : undefined)),
    unnamedRequests: unnamed.filter((x) => x.isRequest),
    unnamedOthers: unnamed.filter((x) => x.method !== "initialize"),
  };
}

/** The first exchange of `list` that came after `x`. */
const nextIn = (list: readonly Exchange[] | undefined, x: Exchange): Exchange | undefined => list?.[firstFrom(list, x.index + 1)];

/** Whichever of two candidates came first. */
const earlier = (a: Exchange | undefined, b: Exchange | undefined) => (a === undefined ? b : b === undefined || a.index < b.index ? a : b);

/** The identical resends of `refused` on its session id, up to the first that was not refused the same way. */
function refusedAgain(posts: Posts, refused: Exchange): Exchange[] {
  const list = posts.requestsById.get(refused.sessionId as string) ?? [];
  const again: Exchange[] = [];
  for (let i = firstFrom(list, refused.index + 1); i < list.length; i++) {
    const x = list[i]!;
    if (!sameCall(refused, x)) continue;
    again.push(x);
    if (!isIdRefused(x)) break;
  }
  return again;
}

function afterInitialize(posts: Posts, what: string, refused: Exchange, init: Exchange): Observation {
  const fresh = init.entry.response.headers["mcp-session-id"];
  const x = earlier(fresh === undefined ? undefined : nextIn(posts.byId.get(fresh), init), nextIn(posts.unnamedOthers, init));
  if (x !== undefined && x.sessionId !== undefined) {
    return observe("pass", `After ${what}, the client initialized again (seq ${init.seq}) and used the new session id (${label(x)}, seq ${x.seq}).`, refused.seq, init.seq, x.seq);
  }
  if (x !== undefined) {
    return observe("fail", `After ${what}, the client initialized again (seq ${init.seq}) but sent ${label(x)} (seq ${x.seq}) without any Mcp-Session-Id.`, refused.seq, init.seq, x.seq);
  }
  return observe("pass", `After ${what}, the client initialized again (seq ${init.seq}); no later request shows which session id it used.`, refused.seq, init.seq);
}

function judge(posts: Posts, refused: Exchange): Observation {
  const id = refused.sessionId as string;
  const what = `the 400 -32600 "Mcp-Session-Id header is required" to ${label(refused)} (seq ${refused.seq}), which carried Mcp-Session-Id ${shortId(id)}`;
  const refusals = refusedAgain(posts, refused).filter(isIdRefused);
  if (refusals.length > MAX_RESENDS) {
    return observe("fail", `After ${what}, the client sent it again with the same id ${refusals.length} times that were refused the same way (a loop: at most ${MAX_RESENDS} expected).`, refused.seq, ...refusals.map((x) => x.seq));
  }
  const x = earlier(nextIn(posts.requestsById.get(id), refused), nextIn(posts.unnamedRequests, refused));
  if (x === undefined) return observe("info", `After ${what}, the client sent no further request on any session: nothing shows how it handled the refusal.`, refused.seq);
  if (x.sessionId === id) {
    const how = sameCall(refused, x) ? "resent it with the same session id" : "went on with the same session id";
    const again = isIdRefused(x) ? " (refused the same way)" : "";
    return observe("pass", `After ${what}, the client ${how}: ${label(x)} (seq ${x.seq}) got ${answerOf(x)}${again}.`, refused.seq, x.seq);
  }
  if (x.method === "initialize") return afterInitialize(posts, what, refused, x);
  return observe("fail", `After ${what}, the client sent ${label(x)} (seq ${x.seq}) without any Mcp-Session-Id and without initializing again.`, refused.seq, x.seq);
}

/**
 * session-id-refusal-handled: after a legacy 400 saying Mcp-Session-Id is required, to a request that did carry it,
 * the client resends with the same id (a bounded number of times) or initializes again and uses the new id; it must
 * not go on without any session id. 2026-07-28 has no sessions, so this is never triggered there.
 */
export function sessionIdRefusalChecks(all: readonly Exchange[]): Check[] {
  const seen = new Set<string>();
  const first = all.filter((x) => {
    if (!isIdRefused(x) || seen.has(x.sessionId as string)) return false;
    seen.add(x.sessionId as string);
    return true;
  });
  const posts = postsOf(all);
  return summarize("session-id-refusal-handled", first.map((x) => judge(posts, x)));
}
