import { isRecord, show } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, label, nextByKey, requestedVersion, rpcError } from "./exchange.ts";

const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const INVALID_PARAMS = -32602;

interface Refusal {
  x: Exchange;
  /** From error.data.supported, else the classifier's reading; undefined when neither could be read. */
  supported?: string[];
  requested?: string;
}

/** 2026-07-28 -32022, or the 2025 lifecycle's -32602 "Unsupported protocol version" with data.supported. */
function refusal(x: Exchange): Refusal | undefined {
  if (!x.isRequest) return undefined;
  const code = errorCode(x);
  const error = rpcError(x);
  const data = isRecord(error?.data) ? error.data : {};
  const listed = Array.isArray(data.supported) ? data.supported.filter((v): v is string => typeof v === "string") : undefined;
  const legacy = code === INVALID_PARAMS && (listed !== undefined || x.entry.verdict?.retry.decision === "renegotiate");
  if (code !== UNSUPPORTED_PROTOCOL_VERSION && !legacy) return undefined;
  const supported = listed ?? x.entry.verdict?.retry.supportedVersions;
  const requested = typeof data.requested === "string" ? data.requested : requestedVersion(x);
  return { x, ...(supported ? { supported } : {}), ...(requested !== undefined ? { requested } : {}) };
}

/**
 * No request after the refusal: info in both eras, never a failure. The 2025 lifecycle names no retry after an
 * initialize error (a client that supports none of the server's versions SHOULD disconnect), and 2026-07-28 asks a
 * retry (SHOULD) only with a version both sides support, which the journal cannot know of the client.
 */
function gaveUp(what: string, x: Exchange, supported: string[] | undefined, last: boolean): Observation {
  const tail = last ? "then sent nothing more" : "then sent no further request";
  const listed = supported ? ` from data.supported ${show(supported)}` : "";
  const rule = errorCode(x) === UNSUPPORTED_PROTOCOL_VERSION
    ? "2026-07-28 asks for a retry with a version both sides support, if the client has one"
    : "the 2025 lifecycle names no retry after an initialize error, and a client that supports none of the server's versions SHOULD disconnect";
  return observe("info", `After ${what} (seq ${x.seq}), the client ${tail}: it gave up without trying a version${listed} (${rule}).`, x.seq);
}

function judge(nextRequest: (x: Exchange) => Exchange | undefined, { x, supported, requested }: Refusal, last: boolean): Observation {
  const what = `the ${errorCode(x)} refusal of ${requested ?? "its version"} to ${label(x)}`;
  const next = nextRequest(x);
  if (!next) return gaveUp(what, x, supported, last);
  const used = requestedVersion(next);
  const how = next.method === "initialize" ? `fell back to initialize with ${show(used)}` : `sent ${label(next)} with version ${show(used)}`;
  if (used !== undefined && used === requested) {
    return observe("fail", `After ${what}, the client repeated the unsupported version: it ${how}.`, x.seq, next.seq);
  }
  if (!supported) {
    return observe("warning", `After ${what}, the client ${how}, but the journal cut the error, so data.supported cannot be read.`, x.seq, next.seq);
  }
  if (used !== undefined && supported.includes(used)) {
    return observe("pass", `After ${what}, the client ${how}, which is in data.supported ${show(supported)}.`, x.seq, next.seq);
  }
  return observe("fail", `After ${what}, the client ${how}, which is not in data.supported ${show(supported)}.`, x.seq, next.seq);
}

/** version-renegotiated: after an unsupported-version error the client must retry with a version the server listed. */
export function renegotiateChecks(all: readonly Exchange[]): Check[] {
  const refusals = all.map(refusal).filter((r): r is Refusal => r !== undefined);
  // Every request shares one key, so "next" is simply the next request.
  const nextRequest = nextByKey(all, (y) => (y.isRequest ? "" : undefined));
  return summarize("version-renegotiated", refusals.map((r) => judge(nextRequest, r, r.x.index === all.length - 1)));
}
