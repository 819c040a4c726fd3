import type { DecodedBody } from "./body.ts";
import type { Findings } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import { isRecord, isRequestId } from "./json.ts";
import { OUTCOME_LAYER } from "./outcome.ts";
import type { RequestInfo } from "./request.ts";
import type { StreamAnalysis } from "./stream.ts";
import { streamDetails } from "./stream.ts";
import { CLASSIFIER_VERSION } from "./verdict.ts";
import type { Finding, Outcome, ProtocolVersion, RetryAdvice, Verdict } from "./verdict.ts";
import type { VersionSource } from "./version.ts";

/** Everything one classification run knows, passed between the layer functions. */
export interface Run {
  findings: Findings;
  status: number;
  version: ProtocolVersion;
  source: VersionSource;
  request: RequestInfo;
  headers: HeaderMap;
  now: number | undefined;
  decoded: DecodedBody;
  stream: StreamAnalysis | undefined;
}

/** A verdict carrying the run's findings and common details, then `extra`'s defined values. */
export function verdict(run: Run, outcome: Outcome, retry: RetryAdvice, extra?: Record<string, unknown>): Verdict {
  const code = extra?.code;
  const out = assemble(outcome, run.status, Number.isSafeInteger(code) ? (code as number) : undefined, retry, run.findings.list);
  out.protocolVersion = run.version;
  out.protocolVersionSource = run.source;
  out.transport = run.decoded.transport;
  out.method = run.request.method;
  if (run.request.expectedId !== undefined) out.expectedId = run.request.expectedId;
  if (run.stream !== undefined) out.sse = streamDetails(run.stream);
  for (const key in extra) {
    const value = extra[key];
    if (value !== undefined && key !== "code") out[key] = value;
  }
  return out;
}

/**
 * A verdict's fixed part, keys in a stable order (outcome, layer, status, code, retry, findings,
 * classifierVersion).
 * Built by assignment rather than spreads: this runs once per classification.
 */
export function assemble(outcome: Outcome, status: number | undefined, code: number | undefined, retry: RetryAdvice, findings: Finding[]): Verdict {
  const out = { outcome, layer: OUTCOME_LAYER[outcome] } as Verdict;
  if (status !== undefined) out.status = status;
  if (code !== undefined) out.code = code;
  out.retry = retry;
  out.findings = findings;
  out.classifierVersion = CLASSIFIER_VERSION;
  return out;
}

/** The response's id as the verdict's `id` detail: a usable id or null, else undefined (left out). */
export function responseId(message: unknown): string | number | null | undefined {
  return isRecord(message) ? usableId(message.id) : undefined;
}

export function usableId(id: unknown): string | number | null | undefined {
  return isRequestId(id) || id === null || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
}
