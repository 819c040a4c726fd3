import type { DecodedBody } from "./body.ts";
import type { Findings } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import { isRecord, isRequestId } from "./json.ts";
import { buildVerdict } from "./outcome.ts";
import type { RequestInfo } from "./request.ts";
import type { StreamAnalysis } from "./stream.ts";
import type { Outcome, ProtocolVersion, RetryAdvice, Verdict } from "./verdict.ts";
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
  details: Record<string, unknown>;
}

/** A verdict carrying the run's findings and common details plus `extra`. */
export function verdict(run: Run, outcome: Outcome, retry: RetryAdvice, extra: Record<string, unknown> = {}): Verdict {
  return buildVerdict(outcome, retry, run.findings.list, { ...run.details, ...extra });
}

/** The response's id as a verdict detail, when it is a usable id or null. */
export function responseId(message: unknown): Record<string, unknown> {
  if (!isRecord(message)) return {};
  const id = message.id;
  return isRequestId(id) || id === null || (typeof id === "number" && Number.isFinite(id)) ? { id } : {};
}

