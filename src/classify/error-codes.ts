import type { JsonRpcError } from "./envelope.ts";
import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { isRecord } from "./json.ts";
import type { ProtocolVersion, RetryDecision } from "./verdict.ts";
import { isModern } from "./version.ts";
import { ERROR_CODES as E, jsonRpcErrorName } from "../wire/facts.ts";

/** What a JSON-RPC error code tells the client to do. */
export interface ErrorAdvice {
  decision: RetryDecision;
  reason: string;
  /** True when the code alone says what to do, so it overrides a generic 4xx "do not retry". */
  specific: boolean;
  supportedVersions?: string[];
  details?: Record<string, unknown>;
}

/** The name of a code for messages, from the wire facts' one table (src/wire/facts.ts). */
export function errorCodeName(code: number): string {
  return jsonRpcErrorName(code) ?? "unknown code";
}

const MODERN_ONLY: ReadonlySet<number> = new Set([E.HeaderMismatch, E.MissingRequiredClientCapability, E.UnsupportedProtocolVersion]);
// 2026 status pairing: -32601 goes with 404, the version/header/capability errors with 400.
const REQUIRED_STATUS_2026: ReadonlyMap<number, number> = new Map([
  [E.MethodNotFound, 404],
  [E.HeaderMismatch, 400],
  [E.MissingRequiredClientCapability, 400],
  [E.UnsupportedProtocolVersion, 400],
]);

function supportedList(data: unknown): string[] | undefined {
  if (!isRecord(data) || !Array.isArray(data.supported)) return undefined;
  return data.supported.filter((v): v is string => typeof v === "string");
}

/** Advice and version-specific findings for one JSON-RPC error. */
export function adviseError(error: JsonRpcError, version: ProtocolVersion, status: number, findings: Findings): ErrorAdvice {
  const { code, data } = error;
  const modern = isModern(version);

  if (MODERN_ONLY.has(code) && !modern) {
    findings.warning(
      "ERROR_CODE_NOT_IN_VERSION",
      `Error ${code} (${errorCodeName(code)}) is defined only in 2026-07-28, not in ${version}; the server speaks the modern protocol.`,
      SpecRef.s26ErrorCodes,
    );
  }
  const required = REQUIRED_STATUS_2026.get(code);
  if (modern && required !== undefined && status !== required) {
    findings.error(
      "STATUS_CODE_MISMATCH",
      `Error ${code} (${errorCodeName(code)}) MUST be sent with HTTP ${required}, not ${status}.`,
      code === E.MethodNotFound ? SpecRef.s26VersionHeader : SpecRef.s26ServerValidation,
    );
  }

  switch (code) {
    case E.ParseError:
    case E.InvalidRequest:
      return {
        decision: "do-not-retry",
        reason: "The server could not read the request itself; sending the same bytes again fails again. Fix the client.",
        specific: true,
      };
    case E.MethodNotFound:
      return { decision: "do-not-retry", reason: "The server does not implement this method (or it is gated behind a capability it did not advertise).", specific: true };
    case E.InvalidParams:
      // The 2025 lifecycle's "Unsupported protocol version" example is -32602 with data {supported, requested}.
      if (supportedList(data) !== undefined) return unsupportedVersion(code, data, findings, false);
      return {
        decision: "fix-input",
        reason: "The request's params are invalid (unknown tool, bad arguments, bad cursor or missing _meta); fix them before sending again.",
        specific: true,
      };
    case E.InternalError:
      return { decision: "investigate", reason: "The server failed internally; the call may have had effects, so do not replay it blindly.", specific: false };
    case E.ResourceNotFound:
      if (modern) {
        findings.warning("RETIRED_ERROR_CODE", "-32002 (resource not found) MUST NOT be emitted in 2026-07-28 (use -32602); clients SHOULD still accept it.", SpecRef.s26ErrorCodes);
      }
      return { decision: "do-not-retry", reason: "The resource does not exist; retrying the same URI will not help.", specific: true };
    case E.UrlElicitationRequired:
      return urlElicitation(version, data, findings);
    case E.HeaderMismatch:
      return {
        decision: "fix-input",
        reason: "The Mcp-* headers do not match the body. Re-fetch tools/list (x-mcp-header annotations), rebuild the headers from the body, then send again once.",
        specific: true,
      };
    case E.MissingRequiredClientCapability: {
      const details = isRecord(data) && isRecord(data.requiredCapabilities) ? { requiredCapabilities: data.requiredCapabilities } : undefined;
      if (details === undefined) findings.warning("ERROR_DATA_MISSING", "-32021 MUST carry data.requiredCapabilities.", SpecRef.s26ErrorCodes);
      const out: ErrorAdvice = {
        decision: "renegotiate",
        reason: "The request needs a client capability that was not declared. Declare it in _meta clientCapabilities if the client supports it and send again; otherwise do not retry.",
        specific: true,
      };
      if (details) out.details = details;
      return out;
    }
    case E.UnsupportedProtocolVersion:
      return unsupportedVersion(code, data, findings, false);
    default:
      break;
  }

  if (code === -32004 && supportedList(data) !== undefined) return unsupportedVersion(code, data, findings, true);
  if (code <= -32000 && code >= -32019) {
    findings.info(
      "IMPLEMENTATION_DEFINED_CODE",
      `Error ${code} is in the legacy implementation-defined range -32000..-32019; receivers MUST NOT assume a meaning for it.`,
      SpecRef.s26ErrorCodes,
    );
  } else if (code <= -32020 && code >= -32099) {
    if (modern) {
      findings.error("RESERVED_ERROR_CODE", `Error ${code} is in the range reserved for the MCP specification but is not defined by it; servers MUST NOT emit it.`, SpecRef.s26ErrorCodes);
    } else {
      findings.info("IMPLEMENTATION_DEFINED_CODE", `Error ${code} is an implementation-defined server error code in ${version}.`);
    }
  } else if (code <= -32000 && code >= -32768) {
    findings.warning("JSONRPC_RESERVED_CODE", `Error ${code} is in the JSON-RPC reserved range but is not a defined code.`, SpecRef.jsonRpcResponse);
  }
  return { decision: "investigate", reason: `Error ${code} has no meaning the client can act on; report it rather than replaying the call.`, specific: false };
}

function unsupportedVersion(code: number, data: unknown, findings: Findings, legacyCode: boolean): ErrorAdvice {
  if (legacyCode) {
    findings.warning(
      "LEGACY_ERROR_CODE",
      "-32004 is the pre-release code for UnsupportedProtocolVersion; the final 2026-07-28 code is -32022.",
      SpecRef.s26Changelog,
    );
  }
  const supported = supportedList(data);
  if (supported === undefined) {
    findings.warning("ERROR_DATA_MISSING", `${code} MUST carry data.supported (the server's versions) and data.requested.`, SpecRef.s26Versioning);
  }
  const out: ErrorAdvice = {
    decision: "renegotiate",
    reason: "The server does not implement the requested protocol version; pick a version from data.supported that the client also speaks and send again.",
    specific: true,
  };
  if (supported !== undefined) out.supportedVersions = supported;
  if (isRecord(data) && typeof data.requested === "string") {
    out.details = { requestedVersion: data.requested };
    if (supported?.includes(data.requested)) {
      findings.warning("REJECTED_SUPPORTED_VERSION", `The server rejects ${data.requested} while listing it in data.supported; a client cannot renegotiate its way out of this.`, SpecRef.s26Versioning);
    }
  }
  return out;
}

function urlElicitation(version: ProtocolVersion, data: unknown, findings: Findings): ErrorAdvice {
  if (version === "2025-11-25") {
    const count = isRecord(data) && Array.isArray(data.elicitations) ? data.elicitations.length : 0;
    return {
      decision: "follow-up",
      reason: `Complete the ${count} URL elicitation(s) in error.data.elicitations, then send the request again.`,
      specific: true,
    };
  }
  if (isModern(version)) {
    findings.error("RETIRED_ERROR_CODE", "-32042 (URL elicitation required) MUST NOT be emitted in 2026-07-28; URL elicitation goes through MRTR.", SpecRef.s26ErrorCodes);
  } else {
    findings.warning("ERROR_CODE_NOT_IN_VERSION", "-32042 (URL elicitation required) exists only in 2025-11-25.", SpecRef.s1125UrlElicitation);
  }
  return { decision: "investigate", reason: "-32042 is not defined in this protocol version.", specific: false };
}
