import { isRecord } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { answerOf, errorCode, type Exchange, gapMs, label, nextByKey, rpcError, sameTarget, showArgs } from "./exchange.ts";

const INVALID_PARAMS = -32602;

/** -32602 for the params themselves, not the 2025 "Unsupported protocol version" answer to initialize. */
function isInvalidParams(x: Exchange): boolean {
  if (!x.isRequest || errorCode(x) !== INVALID_PARAMS) return false;
  const error = rpcError(x);
  const versionError = (isRecord(error?.data) && Array.isArray(error.data.supported)) || /protocol version/i.test(error?.message ?? "");
  return !versionError && x.entry.verdict?.retry.decision !== "renegotiate";
}

function judge(nextOf: (x: Exchange) => Exchange | undefined, x: Exchange): Observation {
  const message = rpcError(x)?.message;
  const after = `after -32602${message ? ` "${message}"` : ""} (HTTP ${x.status})`;
  const retry = nextOf(x);
  if (!retry) return observe("info", `${label(x)} was not sent again ${after}.`, x.seq);
  if (x.paramsKey === undefined || retry.paramsKey === undefined) {
    return observe("warning", `${label(x)} was sent again ${after}, but the journal cut a request body, so the params cannot be compared.`, x.seq, retry.seq);
  }
  if (x.paramsKey === retry.paramsKey) {
    const resent = `${label(x)} was resent unchanged ${showArgs(retry)} ${gapMs(x, retry)} ms ${after}`;
    // Say what the resend got: under an injected -32602 (errors.jsonrpc_error) the same params may well succeed.
    const got = isInvalidParams(retry)
      ? `the same invalid params failed again (seq ${retry.seq}, -32602)`
      : `the client did not fix them; the resend (seq ${retry.seq}) got ${answerOf(retry)}`;
    return observe("fail", `${resent}: ${got}.`, x.seq, retry.seq);
  }
  const [before, now] = [showArgs(x), showArgs(retry)];
  const change = before === now ? `the same arguments ${now}, with a changed _meta` : `${before} then ${now}`;
  return observe("pass", `${label(x)} was resent with changed params ${after}: ${change}.`, x.seq, retry.seq);
}

/** invalid-params-fixed: after -32602 the client must fix the params before sending the request again. */
export function fixInputChecks(all: readonly Exchange[]): Check[] {
  const nextOf = nextByKey(all, sameTarget);
  return summarize("invalid-params-fixed", all.filter(isInvalidParams).map((x) => judge(nextOf, x)));
}
