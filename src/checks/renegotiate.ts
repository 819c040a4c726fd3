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

function judge(nextRequest: (x: Exchange) => Exchange | undefined, { x, supported, requested }: Refusal): Observation {
  const what = `the ${errorCode(x)} refusal of ${requested ?? "its version"} to ${label(x)}`;
  const next = nextRequest(x);
  if (!next) return observe("info", `No request after ${what}: the client did not try another version.`, x.seq);
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
  return summarize("version-renegotiated", refusals.map((r) => judge(nextRequest, r)));
}
