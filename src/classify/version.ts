import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { isRecord } from "./json.ts";
import type { RequestInfo } from "./request.ts";
import type { ProtocolVersion } from "./verdict.ts";

export type VersionSource = "input" | "header" | "meta" | "detected" | "default";

export interface ResolvedVersion {
  version: ProtocolVersion;
  source: VersionSource;
}

const KNOWN: readonly ProtocolVersion[] = ["2025-06-18", "2025-11-25", "2026-07-28"];
export const DEFAULT_VERSION: ProtocolVersion = "2025-11-25";
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);
const MODERN_RESULT_META = ["io.modelcontextprotocol/serverInfo"];

export function isModern(version: ProtocolVersion): boolean {
  return version === "2026-07-28";
}

/** Maps a version string to the rule set that governs it; dates between releases use the older release's rules. */
export function ruleSetFor(raw: string): { version: ProtocolVersion; exact: boolean } | undefined {
  const value = raw.trim();
  const known = KNOWN.find((v) => v === value);
  if (known) return { version: known, exact: true };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  if (value < "2025-11-25") return { version: "2025-06-18", exact: false };
  if (value < "2026-07-28") return { version: "2025-11-25", exact: false };
  return { version: "2026-07-28", exact: false };
}

/**
 * Picks the protocol version: the caller's, else the request's MCP-Protocol-Version header, else its
 * `_meta` protocolVersion, else one detected from the response, else 2025-11-25.
 */
export function resolveVersion(
  input: unknown,
  request: RequestInfo,
  response: unknown,
  findings: Findings,
): ResolvedVersion {
  if (request.headerVersion !== undefined && request.metaVersion !== undefined && request.headerVersion !== request.metaVersion) {
    findings.warning(
      "REQUEST_VERSION_MISMATCH",
      `The request's MCP-Protocol-Version header (${request.headerVersion}) differs from _meta protocolVersion (${request.metaVersion}); a 2026 server must reject it with 400 and -32020.`,
      SpecRef.s26VersionHeader,
    );
  }
  const given =
    fromLabel(input, "exchange.protocolVersion", findings, "input") ??
    fromLabel(request.headerVersion, "MCP-Protocol-Version header", findings, "header") ??
    fromLabel(request.metaVersion, "_meta protocolVersion", findings, "meta");
  if (given !== undefined) return given;
  const detected = detectVersion(request, response);
  if (detected !== undefined) return { version: detected, source: "detected" };
  return { version: DEFAULT_VERSION, source: "default" };
}

/** The rule set for one declared version, or undefined (with a finding when it is not a version). */
function fromLabel(raw: unknown, label: string, findings: Findings, source: VersionSource): ResolvedVersion | undefined {
  if (typeof raw !== "string") return undefined;
  const rules = ruleSetFor(raw);
  if (rules === undefined) {
    findings.warning("PROTOCOL_VERSION_UNKNOWN", `The ${label} ${JSON.stringify(raw)} is not a protocol version; ignored.`);
    return undefined;
  }
  if (!rules.exact) {
    findings.info("PROTOCOL_VERSION_APPROXIMATED", `The ${label} ${raw} is not one of ${KNOWN.join(", ")}; applying the ${rules.version} rules.`);
  }
  return { version: rules.version, source };
}

function detectVersion(request: RequestInfo, response: unknown): ProtocolVersion | undefined {
  if (isRecord(response)) {
    const result = response.result;
    if (isRecord(result) && typeof result.resultType === "string") return "2026-07-28";
    // Result _meta keys that only 2026-07-28 defines (basic/index, "_meta"): the era even when resultType is missing.
    if (isRecord(result) && isRecord(result._meta) && MODERN_RESULT_META.some((key) => key in (result._meta as object))) return "2026-07-28";
    if (isRecord(response.error) && MODERN_ERROR_CODES.has(response.error.code as number)) return "2026-07-28";
    if (request.method === "initialize" && isRecord(result) && typeof result.protocolVersion === "string") {
      const fromResult = ruleSetFor(result.protocolVersion);
      if (fromResult) return fromResult.version;
    }
  }
  if (request.initializeVersion !== undefined) return ruleSetFor(request.initializeVersion)?.version;
  return undefined;
}
