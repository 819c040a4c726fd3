import { type Check, type Observation, observe, summarize } from "./check.ts";
import { answerOf, errorCode, type Exchange, label, rpcError, sameCall } from "./exchange.ts";
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

/** Counts the identical resends of `refused` on its session id that were refused again, up to the first that was not. */
function refusedAgain(all: readonly Exchange[], refused: Exchange): Exchange[] {
  const again: Exchange[] = [];
  for (let i = refused.index + 1; i < all.length; i++) {
    const x = all[i]!;
    if (!x.isRequest || x.sessionId !== refused.sessionId || !sameCall(refused, x)) continue;
    again.push(x);
    if (!isIdRefused(x)) break;
  }
  return again;
}

function afterInitialize(all: readonly Exchange[], what: string, refused: Exchange, init: Exchange): Observation {
  const fresh = init.entry.response.headers["mcp-session-id"];
  for (let i = init.index + 1; i < all.length; i++) {
    const x = all[i]!;
    if (x.httpMethod !== "POST" || (x.entry.era === "modern" && x.sessionId === undefined)) continue;
    if (fresh !== undefined && x.sessionId === fresh) {
      return observe("pass", `After ${what}, the client initialized again (seq ${init.seq}) and used the new session id (${label(x)}, seq ${x.seq}).`, refused.seq, init.seq, x.seq);
    }
    if (x.sessionId === undefined && x.method !== "initialize") {
      return observe("fail", `After ${what}, the client initialized again (seq ${init.seq}) but sent ${label(x)} (seq ${x.seq}) without any Mcp-Session-Id.`, refused.seq, init.seq, x.seq);
    }
  }
  return observe("pass", `After ${what}, the client initialized again (seq ${init.seq}); no later request shows which session id it used.`, refused.seq, init.seq);
}

function judge(all: readonly Exchange[], refused: Exchange): Observation {
  const id = refused.sessionId as string;
  const what = `the 400 -32600 "Mcp-Session-Id header is required" to ${label(refused)} (seq ${refused.seq}), which carried Mcp-Session-Id ${shortId(id)}`;
  const again = refusedAgain(all, refused);
  const refusals = again.filter(isIdRefused);
  if (refusals.length > MAX_RESENDS) {
    return observe("fail", `After ${what}, the client sent it again with the same id ${refusals.length} times that were refused the same way (a loop: at most ${MAX_RESENDS} expected).`, refused.seq, ...refusals.map((x) => x.seq));
  }
  for (let i = refused.index + 1; i < all.length; i++) {
    const x = all[i]!;
    // 2026-07-28 requests are stateless: not part of any session.
    if (x.httpMethod !== "POST" || (x.entry.era === "modern" && x.sessionId === undefined)) continue;
    if (x.sessionId === id && x.isRequest) {
      const how = sameCall(refused, x) ? "resent it with the same session id" : "went on with the same session id";
      const again = isIdRefused(x) ? " (refused the same way)" : "";
      return observe("pass", `After ${what}, the client ${how}: ${label(x)} (seq ${x.seq}) got ${answerOf(x)}${again}.`, refused.seq, x.seq);
    }
    if (x.method === "initialize" && x.sessionId === undefined) return afterInitialize(all, what, refused, x);
    if (x.sessionId === undefined && x.isRequest) {
      return observe("fail", `After ${what}, the client sent ${label(x)} (seq ${x.seq}) without any Mcp-Session-Id and without initializing again.`, refused.seq, x.seq);
    }
  }
  return observe("info", `After ${what}, the client sent no further request on any session: nothing shows how it handled the refusal.`, refused.seq);
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
  return summarize("session-id-refusal-handled", first.map((x) => judge(all, x)));
}
