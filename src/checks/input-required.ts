import { isRecord, show } from "../classify/index.ts";
import type { CheckId } from "../mcp/check-ids.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type Exchange, label, nextByKey, resultOf, sameCall, sameTarget, showArgs } from "./exchange.ts";

/** An input_required result and the request the client sent next for the same method and target. */
interface Round {
  asked: Exchange;
  retry?: Exchange;
  /** Read from the result; undefined when the journal cut it. */
  result?: Record<string, unknown>;
}

function isInputRequired(x: Exchange): boolean {
  return x.isRequest && (resultOf(x)?.resultType === "input_required" || x.entry.verdict?.outcome === "INPUT_REQUIRED");
}

function rounds(all: readonly Exchange[]): Round[] {
  const nextOf = nextByKey(all, sameTarget);
  return all.filter(isInputRequired).map((asked) => {
    const retry = nextOf(asked);
    const result = resultOf(asked);
    return { asked, ...(retry ? { retry } : {}), ...(result ? { result } : {}) };
  });
}

type Judge = (round: Round & { retry: Exchange }) => Observation;

/** Runs one rule over every round, with the common answers for a missing retry and cut bodies. */
function rule(id: CheckId, list: readonly Round[], needs: { result: boolean; request: boolean }, judge: Judge): Check[] {
  return summarize(
    id,
    list.map((round) => {
      const { asked, retry } = round;
      const where = `the input_required result to ${label(asked)}`;
      if (!retry) return observe("info", `No retry after ${where}: the client did not send ${label(asked)} again.`, asked.seq);
      if (needs.result && !round.result && asked.reply.truncated) {
        return observe(
          "warning",
          `The journal cut ${where} (${asked.entry.response.body.bytes} bytes), so the retry cannot be compared with it.`,
          asked.seq,
          retry.seq,
        );
      }
      if (needs.request && retry.params === undefined) {
        return observe(
          "warning",
          `The journal cut the retry's request body (${retry.entry.request.body.bytes} bytes), so it cannot be compared with ${where}.`,
          asked.seq,
          retry.seq,
        );
      }
      return judge({ ...round, retry });
    }),
  );
}

const newRequestId: Judge = ({ asked, retry }) =>
  retry.id === asked.id
    ? observe("fail", `The retry reused JSON-RPC id ${show(asked.id)}; the id MUST differ from the initial request's (2026-07-28 MRTR).`, asked.seq, retry.seq)
    : observe("pass", `The retry used a new JSON-RPC id ${show(retry.id)} (the initial request had ${show(asked.id)}).`, asked.seq, retry.seq);

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const requestStateEchoed: Judge = ({ asked, retry, result }) => {
  const given = result?.requestState;
  const sent = retry.params?.requestState;
  const seqs = [asked.seq, retry.seq];
  if (typeof given !== "string") {
    return sent === undefined
      ? observe("pass", "No requestState was given and the retry sent none.", ...seqs)
      : observe("fail", `The retry sent requestState ${show(sent)} although the result gave none; the client MUST NOT send one then.`, ...seqs);
  }
  if (sent === undefined) return observe("fail", `The retry omitted the requestState (${given.length} characters) it MUST echo.`, ...seqs);
  if (sent === given) return observe("pass", `The retry echoed requestState byte-exact (${given.length} characters).`, ...seqs);
  const at = typeof sent === "string" ? firstDifference(given, sent) : 0;
  const text = typeof sent === "string" ? `${sent.length} characters, differing from character ${at}` : `a ${typeof sent}`;
  return observe(
    "fail",
    `The retry's requestState is not the one given (${given.length} characters; the retry sent ${text}); it MUST be echoed exactly.`,
    ...seqs,
  );
};

/** The inputRequests keys: from the result, else the classifier's (it read the whole body); undefined when unknown. */
function requestedKeys(asked: Exchange, result: Record<string, unknown> | undefined): string[] | undefined {
  if (result) return isRecord(result.inputRequests) ? Object.keys(result.inputRequests) : [];
  return asked.entry.verdict?.retry.inputKeys;
}

const inputResponsesComplete: Judge = ({ asked, retry, result }) => {
  const keys = requestedKeys(asked, result);
  const responses = retry.params?.inputResponses;
  const answered = isRecord(responses) ? Object.keys(responses) : [];
  const seqs = [asked.seq, retry.seq];
  if (keys === undefined) {
    return observe("warning", `The journal cut the input_required result to ${label(asked)}, so its inputRequests cannot be read.`, ...seqs);
  }
  const missing = keys.filter((k) => !answered.includes(k));
  if (keys.length === 0) return observe("pass", "The result asked for no input (requestState only); nothing to answer.", ...seqs);
  if (missing.length === 0) return observe("pass", `The retry answered every input request: ${keys.join(", ")}.`, ...seqs);
  const had = answered.length === 0 ? "it carried no inputResponses" : `it answered only ${answered.join(", ")}`;
  return observe("fail", `The retry left input request${missing.length === 1 ? "" : "s"} ${missing.join(", ")} unanswered (${had}).`, ...seqs);
};

const sameRequest: Judge = ({ asked, retry }) => {
  const seqs = [asked.seq, retry.seq];
  if (!asked.params || !retry.params) {
    return observe("warning", `The journal cut the request body of ${label(asked)}, so the retry's params cannot be compared with it.`, ...seqs);
  }
  if (sameCall(asked, retry)) return observe("pass", `The retry repeated ${label(asked)} with the same params.`, ...seqs);
  return observe(
    "fail",
    `The retry changed ${label(asked)}: ${showArgs(asked)} became ${showArgs(retry)} (ignoring _meta, inputResponses and requestState).`,
    ...seqs,
  );
};

/**
 * mrtr-new-request-id, mrtr-request-state-echoed, mrtr-input-responses-complete and mrtr-same-request:
 * the 2026-07-28 multi round-trip retry that follows an input_required result.
 */
export function inputRequiredChecks(all: readonly Exchange[]): Check[] {
  const list = rounds(all);
  return [
    ...rule("mrtr-new-request-id", list, { result: false, request: false }, newRequestId),
    ...rule("mrtr-request-state-echoed", list, { result: true, request: true }, requestStateEchoed),
    ...rule("mrtr-input-responses-complete", list, { result: false, request: true }, inputResponsesComplete),
    ...rule("mrtr-same-request", list, { result: false, request: false }, sameRequest),
  ];
}
