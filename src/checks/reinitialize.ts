import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, label } from "./exchange.ts";

const METHOD_NOT_FOUND = -32601;

/** 2025-11-25 transports: a 404 to a request carrying Mcp-Session-Id means the session is gone (not an unknown method). */
function isSessionGone(x: Exchange): boolean {
  return x.httpMethod === "POST" && x.status === 404 && x.sessionId !== undefined && x.entry.era !== "modern" && errorCode(x) !== METHOD_NOT_FOUND;
}

function judge(all: readonly Exchange[], gone: Exchange): Observation {
  const dead = gone.sessionId as string;
  const short = dead.length > 12 ? `${dead.slice(0, 8)}…` : dead;
  const what = `the 404 to ${label(gone)} on session ${short}`;
  // Later POSTs of this client: those with the dead id, no id or the new one; other ids belong to other sessions.
  let fresh: string | undefined;
  let initialized: Exchange | undefined;
  for (let i = gone.index + 1; i < all.length; i++) {
    const x = all[i]!;
    // 2026-07-28 requests are stateless: not part of any session.
    if (x.httpMethod !== "POST" || (x.entry.era === "modern" && x.sessionId === undefined)) continue;
    if (x.sessionId === dead) {
      const stage = initialized ? `after re-initializing at seq ${initialized.seq}` : "instead of initializing a new session";
      return observe("fail", `After ${what}, the client kept sending the dead Mcp-Session-Id (${label(x)}) ${stage}.`, gone.seq, x.seq);
    }
    if (x.method === "initialize" && x.sessionId === undefined) {
      initialized = x;
      fresh = x.entry.response.headers["mcp-session-id"];
      continue;
    }
    if (!initialized) {
      if (x.sessionId !== undefined) continue;
      return observe("fail", `After ${what}, the client sent ${label(x)} without a session instead of a new initialize.`, gone.seq, x.seq);
    }
    if (fresh !== undefined && x.sessionId === fresh) {
      return observe(
        "pass",
        `After ${what}, the client sent a new initialize without Mcp-Session-Id and then used the new session id (${label(x)}).`,
        gone.seq,
        initialized.seq,
        x.seq,
      );
    }
    if (x.sessionId === undefined && x.method !== "initialize") {
      return observe(
        "fail",
        `After ${what}, the client initialized again but sent ${label(x)} without the new Mcp-Session-Id.`,
        gone.seq,
        initialized.seq,
        x.seq,
      );
    }
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

/** session-reinitialized: after a legacy session's 404 the client must initialize again, without the dead id. */
export function reinitializeChecks(all: readonly Exchange[]): Check[] {
  const seen = new Set<string>();
  const first = all.filter((x) => {
    if (!isSessionGone(x) || seen.has(x.sessionId as string)) return false;
    seen.add(x.sessionId as string);
    return true;
  });
  return summarize("session-reinitialized", first.map((x) => judge(all, x)));
}
