import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange } from "./exchange.ts";

const METHOD_NOT_FOUND = -32601;
/**
 * More calls of a method after its -32601 than this, each refused again, is a client that does not hear "this server
 * has no such method". One more is allowed: a client may list again after reconnecting.
 */
export const MAX_REPEATS = 1;

const refused = (x: Exchange): boolean => x.isRequest && x.method !== undefined && errorCode(x) === METHOD_NOT_FOUND;

/** The first -32601 to each method, with every later request of that method: one pass, whatever the methods. */
function episodes(all: readonly Exchange[]): { first: Exchange; later: Exchange[] }[] {
  const byMethod = new Map<string, { first: Exchange; later: Exchange[] }>();
  for (const x of all) {
    if (!x.isRequest || x.method === undefined) continue;
    const episode = byMethod.get(x.method);
    if (episode) episode.later.push(x);
    else if (refused(x)) byMethod.set(x.method, { first: x, later: [] });
  }
  return [...byMethod.values()];
}

function judge({ first, later }: { first: Exchange; later: Exchange[] }): Observation {
  const what = `the -32601 to ${first.method}`;
  const again = later.filter(refused);
  // A later success means the method exists after all: calling it again was right.
  if (later.length > again.length) return observe("pass", `After ${what}, the client called it again and it was answered.`, first.seq, ...later.map((x) => x.seq));
  if (again.length === 0) return observe("pass", `After ${what}, the client did not call ${first.method} again.`, first.seq);
  const seqs = [first.seq, ...again.map((x) => x.seq)];
  if (again.length > MAX_REPEATS) {
    return observe("fail", `After ${what}, the client called it ${again.length} more times, each refused -32601 again (at most ${MAX_REPEATS} expected).`, ...seqs);
  }
  return observe("pass", `After ${what}, the client called it ${again.length} more time${again.length === 1 ? "" : "s"} (at most ${MAX_REPEATS} expected).`, ...seqs);
}

/** method-not-found-not-repeated: a method the server answered -32601 is not called again and again. */
export function methodNotFoundChecks(all: readonly Exchange[]): Check[] {
  return summarize("method-not-found-not-repeated", episodes(all).map(judge));
}
