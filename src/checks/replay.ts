import { OUTCOMES } from "../classify/index.ts";
import type { ToolAnnotations } from "../mcp/tool.ts";
import { isRepeatable, toolAnnotations } from "./annotations.ts";
import { type Check, type Observation, observe, summarize, withRetry } from "./check.ts";
import { answerOf, type Exchange, gapMs, nextByKey, resumedAnswer, retrySeen, sameCall, sameTarget, showArgs, targetOf } from "./exchange.ts";

/**
 * Not safe to repeat: neither read-only nor idempotent, with MCP's defaults for what the tool left out (a tool without
 * annotations is not read-only and not idempotent), so every tool is judged.
 */
const nonIdempotent = (a: ToolAnnotations | undefined): boolean => !isRepeatable(a);

/**
 * How the call failed, or undefined when it succeeded. A call the client abandoned (it closed the stream before the
 * response: its own timeout) or that the response deadline ended with no response got no answer, whatever the
 * classifier made of the bytes sent, so a resend after it is judged by what the first attempt did.
 */
function failure(x: Exchange): string | undefined {
  const closedAt = x.entry.response.clientClosedAtMs;
  if (closedAt !== undefined && x.reply.message === undefined) return `no answer (the client closed the stream ${closedAt} ms in)`;
  if (x.entry.response.cutByDeadline && x.reply.message === undefined) return "no answer before the response deadline";
  const outcome = x.entry.verdict?.outcome;
  if (outcome !== undefined && OUTCOMES[outcome].success) return undefined;
  if (outcome === "INPUT_REQUIRED" || (outcome === undefined && x.status < 300)) return undefined;
  return answerOf(x);
}

function ranNote(x: Exchange): string {
  if (x.entry.effects === "ran") return "the first attempt ran the tool";
  if (x.entry.effects === "possible") return "the first attempt may have run the tool";
  return "the journal does not say whether the first attempt ran the tool";
}

type Find = (x: Exchange) => Exchange | undefined;

/**
 * The same call sent again before this one's response ended (a client that gave up on a held stream while the server
 * still answered it, as behind a buffering proxy): the client had no answer, whatever the server sent after.
 */
function overtaken(call: Exchange, next: Exchange | undefined): string | undefined {
  if (!next || !sameCall(call, next) || next.start >= call.end) return undefined;
  return "no answer yet";
}

function judge(nextOf: Find, resumedOf: Find, call: Exchange): Observation | undefined {
  // An input_required result asks for the retry; mrtr-* judge it.
  if (call.entry.verdict?.outcome === "INPUT_REQUIRED") return undefined;
  const tool = targetOf(call) ?? "";
  const next = nextOf(call);
  // A cut stream the client resumed was answered: the resumed GET's verdict is the call's.
  const resumed = resumedOf(call);
  const failed = failure(resumed ?? call) ?? (resumed ? undefined : overtaken(call, next));
  if (failed === undefined) {
    if (!next || !sameCall(call, next)) return undefined;
    const answered = resumed ? ` (answered on the resumed stream, seq ${resumed.seq})` : "";
    return observe(
      "info",
      `${tool} was called again with the same arguments ${gapMs(resumed ?? call, next)} ms after it succeeded${answered}: a second, presumably deliberate, call.`,
      call.seq,
      next.seq,
    );
  }
  const after = `after ${failed} to ${tool}`;
  if (!next) return observe("pass", `${tool} was not resent ${after}.`, call.seq);
  if (call.params === undefined || next.params === undefined) {
    return observe(
      "warning",
      `${tool} was called again ${after}, but the journal cut a request body, so the arguments cannot be compared.`,
      call.seq,
      next.seq,
    );
  }
  if (sameCall(call, next)) {
    const gap = gapMs(call, next);
    const when = gap < 0 ? `while the first attempt was still open (${-gap} ms before its response ended)` : `${gap} ms ${after}`;
    const resent = `${tool} was sent again with the same arguments ${showArgs(next)} ${when}`;
    // What the server did decides: a resend is a risky replay only when the earlier attempt may have had effects.
    // Entries journalled before `effects` existed lack it and are judged as before.
    const judged = call.entry.effects === "none"
      ? observe("pass", `${resent}: not a risky replay, since the tool never ran the first time (the server answered before its handler).`, call.seq, next.seq)
      : observe("fail", `${resent}: a blind replay of a tool that is not idempotent (${ranNote(call)}, so it may run twice).`, call.seq, next.seq);
    return withRetry(judged, retrySeen(call, next));
  }
  return observe("pass", `${tool} was resent with changed arguments ${after}: ${showArgs(call)} then ${showArgs(next)}.`, call.seq, next.seq);
}

/** non-idempotent-not-replayed: a failed call of a non-idempotent tool must not be resent blindly. */
export function replayChecks(all: readonly Exchange[]): Check[] {
  const annotations = toolAnnotations(all);
  const calls = all.filter((x) => x.isRequest && x.method === "tools/call" && nonIdempotent(annotations.get(targetOf(x) ?? "")));
  const nextOf = nextByKey(all, sameTarget);
  const resumedOf = resumedAnswer(all);
  const observations = calls.map((x) => judge(nextOf, resumedOf, x)).filter((o): o is Observation => o !== undefined);
  return summarize("non-idempotent-not-replayed", observations);
}
