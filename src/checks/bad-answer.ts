import { isRepeatable, toolAnnotations } from "./annotations.ts";
import type { ToolAnnotations } from "../mcp/tool.ts";
import { type Check, type Observation, observe, summarize, withRetry } from "./check.ts";
import { answerOf, type Exchange, label, nextByKey, retrySeen, sameCall, sameTarget, showArgs, targetOf } from "./exchange.ts";

/** The fault kinds that spoil an answer the client must read: unparseable bodies, broken envelopes, invalid results, results megabytes long. */
export const BAD_ANSWER_FAULTS: ReadonlySet<string> = new Set(["malformed", "envelope", "bad_result", "oversized"]);
/** More identical resends of one call after bad answers than this is a loop. */
export const MAX_RESENDS = 3;

const isBadAnswer = (x: Exchange): boolean => x.isRequest && BAD_ANSWER_FAULTS.has(x.entry.fault?.kind ?? "");

/** "the malformed answer to tools/call echo (seq 5: invalid_json, read as an unusable response (MALFORMED_JSON))". */
function describe(x: Exchange): string {
  const variant = x.entry.fault?.detail.variant;
  return `the ${x.entry.fault?.kind} answer to ${label(x)} (seq ${x.seq}: ${typeof variant === "string" ? `${variant}, ` : ""}read as ${answerOf(x)})`;
}

/** Why a resend is safe, or undefined when it is not: only a tools/call acts on the world. */
function safeBecause(x: Exchange, annotations: ReadonlyMap<string, ToolAnnotations | undefined>): string | undefined {
  if (x.method !== "tools/call") return `${x.method ?? "the request"} does not call a tool`;
  const tool = targetOf(x) ?? "";
  if (isRepeatable(annotations.get(tool))) return `${tool} is declared read-only or idempotent`;
  if (x.entry.effects === "none") return `the tool never ran the first time (the server answered before its handler)`;
  return undefined;
}

/** The identical resends of `x` in a row, each after the one before it got a bad answer too. */
function resendChain(x: Exchange, nextOf: (y: Exchange) => Exchange | undefined): Exchange[] {
  const chain: Exchange[] = [];
  for (let next = nextOf(x); next && sameCall(x, next); next = nextOf(next)) {
    chain.push(next);
    if (!isBadAnswer(next)) break;
  }
  return chain;
}

function judgeResend(x: Exchange, chain: readonly Exchange[], annotations: ReadonlyMap<string, ToolAnnotations | undefined>): Observation {
  const first = chain[0] as Exchange;
  const what = describe(x);
  const seqs = [x.seq, ...chain.map((y) => y.seq)];
  if (chain.length > MAX_RESENDS) {
    return observe("fail", `After ${what}, ${label(x)} was sent again with the same arguments ${chain.length} times in a row (a loop: at most ${MAX_RESENDS} expected).`, ...seqs);
  }
  const resent = `After ${what}, ${label(x)} was sent again with the same arguments ${showArgs(first)} (seq ${first.seq})`;
  const safe = safeBecause(x, annotations);
  if (safe !== undefined) return observe("pass", `${resent}: a safe resend, since ${safe}.`, x.seq, first.seq);
  const tool = targetOf(x) ?? "";
  if (x.entry.effects === undefined) {
    return observe("warning", `${resent}, but the journal does not say whether the first attempt ran ${tool}, which is not idempotent.`, x.seq, first.seq);
  }
  const ran = x.entry.effects === "ran" ? "the first attempt ran the tool" : "the first attempt may have run the tool";
  return observe("fail", `${resent}: a blind resend of ${tool}, which is not idempotent (${ran}, so it may run twice).`, x.seq, first.seq);
}

function judge(all: readonly Exchange[], x: Exchange, nextOf: (y: Exchange) => Exchange | undefined, nextRequest: (y: Exchange) => Exchange | undefined, annotations: ReadonlyMap<string, ToolAnnotations | undefined>): Observation {
  const again = nextOf(x);
  if (again && again.params !== undefined && x.params !== undefined && sameCall(x, again)) {
    const chain = resendChain(x, nextOf);
    return withRetry(judgeResend(x, chain, annotations), retrySeen(x, chain[0] as Exchange));
  }
  const what = describe(x);
  if (again) {
    if (x.params === undefined || again.params === undefined) {
      return observe("warning", `After ${what}, the client sent ${label(again)} again (seq ${again.seq}), but the journal cut a request body, so the arguments cannot be compared.`, x.seq, again.seq);
    }
    return observe("pass", `After ${what}, the client resent ${label(again)} with changed arguments (seq ${again.seq}): ${showArgs(x)} then ${showArgs(again)}.`, x.seq, again.seq);
  }
  const other = nextRequest(x);
  if (other) return observe("pass", `After ${what}, the client did not send it again and moved on to ${label(other)} (seq ${other.seq}).`, x.seq, other.seq);
  // Stopping is no misbehaviour, but it shows nothing of how the client read the answer: it may have given up or been done.
  const tail = x.index === all.length - 1 ? "then sent nothing more" : "then sent no further request (only notifications or GETs)";
  return observe("info", `The client did not resend ${label(x)} after ${what}, and ${tail}: the journal cannot tell whether it gave up or had finished.`, x.seq);
}

/**
 * bad-answer-handled: what the client did after an answer it could not use (a malformed body, a broken JSON-RPC
 * envelope, an invalid result). A resend of the same call is judged by the call's effects and the tool's annotations
 * (MCP's defaults: an unannotated tool is not idempotent); moving on is a pass; a loop of resends is a failure.
 */
export function badAnswerChecks(all: readonly Exchange[]): Check[] {
  const bad = all.filter(isBadAnswer);
  if (bad.length === 0) return [];
  const annotations = toolAnnotations(all);
  const nextOf = nextByKey(all, sameTarget);
  const nextRequest = nextByKey(all, (y) => (y.isRequest ? "" : undefined));
  // A resend that got a bad answer too is judged within its chain, not again on its own.
  const inChain = new Set(bad.flatMap((x) => resendChain(x, nextOf)));
  return summarize("bad-answer-handled", bad.filter((x) => !inChain.has(x)).map((x) => judge(all, x, nextOf, nextRequest, annotations)));
}
