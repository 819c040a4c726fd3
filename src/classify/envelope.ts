import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { has, isRecord, isRequestId, show, typeName } from "./json.ts";
import type { ProtocolVersion } from "./verdict.ts";

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A validated JSON-RPC response, or the reason it is not one. */
export type Envelope =
  | { kind: "invalid"; code: string; message: string; specRef?: string; id?: unknown }
  | { kind: "result"; id: string | number; result: unknown }
  | { kind: "error"; id: string | number | null | undefined; error: JsonRpcError };

function invalid(code: string, message: string, specRef?: string, id?: unknown): Envelope {
  const out: Envelope = { kind: "invalid", code, message };
  if (specRef !== undefined) out.specRef = specRef;
  if (id !== undefined) out.id = id;
  return out;
}

function responsesRef(version: ProtocolVersion): string {
  if (version === "2026-07-28") return SpecRef.s26Responses;
  if (version === "2025-11-25") return SpecRef.s1125ErrorResponses;
  return SpecRef.s0618Responses;
}

/** Checks one JSON-RPC response: jsonrpc "2.0", exactly one of result/error, the id, and the error object. */
export function validateEnvelope(
  message: unknown,
  expectedId: string | number | undefined,
  version: ProtocolVersion,
  findings: Findings,
): Envelope {
  const ref = responsesRef(version);
  if (Array.isArray(message)) {
    return invalid("BATCH_NOT_ALLOWED", "The body is a JSON array (a batch); every MCP version since 2025-06-18 requires one JSON-RPC message per body.", ref);
  }
  if (!isRecord(message)) return invalid("NOT_AN_OBJECT", `The body is JSON ${typeName(message)}, not a JSON-RPC response object.`, SpecRef.jsonRpcResponse);
  if (!has(message, "jsonrpc")) return invalid("JSONRPC_MISSING", 'The response has no "jsonrpc" member; it MUST be exactly "2.0".', SpecRef.jsonRpcResponse);
  if (message.jsonrpc !== "2.0") {
    return invalid("JSONRPC_VERSION_INVALID", `"jsonrpc" is ${show(message.jsonrpc)}; it MUST be exactly "2.0".`, SpecRef.jsonRpcResponse);
  }
  if (typeof message.method === "string") {
    const what = has(message, "id") ? "request" : "notification";
    return invalid("NOT_A_RESPONSE", `The body is a JSON-RPC ${what} (${message.method}), not the response to the request.`, ref);
  }
  const hasResult = has(message, "result");
  const hasError = has(message, "error");
  if (hasResult && hasError) return invalid("RESULT_AND_ERROR", "The response sets both result and error; exactly one MUST be set.", ref, message.id);
  if (!hasResult && !hasError) return invalid("NO_RESULT_OR_ERROR", "The response has neither result nor error; exactly one MUST be set.", ref, message.id);

  const idCheck = hasResult ? checkResultId(message, expectedId, ref) : checkErrorId(message, expectedId, ref, findings);
  if (idCheck !== undefined) return idCheck;

  if (hasResult) return { kind: "result", id: message.id as string | number, result: message.result };
  return checkErrorObject(message, ref);
}

function mismatch(id: unknown, expectedId: string | number, ref: string): Envelope {
  const sameText = String(id) === String(expectedId);
  const note = sameText ? ` (same text, different type: ${typeName(id)} vs ${typeName(expectedId)}; "1" is not 1)` : "";
  return invalid("ID_MISMATCH", `The response id ${show(id)} does not equal the request id ${show(expectedId)}${note}.`, ref, id);
}

function checkResultId(message: Record<string, unknown>, expectedId: string | number | undefined, ref: string): Envelope | undefined {
  if (!has(message, "id")) return invalid("ID_MISSING", "The result response has no id; result responses MUST carry the request's id.", ref);
  const id = message.id;
  if (id === null) return invalid("ID_NULL", "The result response has a null id; MCP ids are strings or integers and never null.", ref, id);
  if (!isRequestId(id)) return invalid("ID_INVALID_TYPE", `The response id ${show(id)} is a ${typeName(id)}; it MUST be a string or an integer.`, ref, id);
  if (expectedId !== undefined && id !== expectedId) return mismatch(id, expectedId, ref);
  return undefined;
}

function checkErrorId(
  message: Record<string, unknown>,
  expectedId: string | number | undefined,
  ref: string,
  findings: Findings,
): Envelope | undefined {
  if (!has(message, "id")) {
    return invalid(
      "ERROR_ID_MISSING",
      'The error response has no "id" member; JSON-RPC 2.0 requires it in every response ("id": null only when the request\'s id could not be read).',
      SpecRef.jsonRpcResponse,
    );
  }
  const id = message.id;
  if (id === null) {
    findings.warning(
      "ID_NULL",
      'The error response has "id": null (JSON-RPC 2.0 base style, common in SDKs); MCP ids are never null, so this is a spec deviation.',
      ref,
    );
    return undefined;
  }
  if (!isRequestId(id)) return invalid("ID_INVALID_TYPE", `The response id ${show(id)} is a ${typeName(id)}; it MUST be a string or an integer.`, ref, id);
  if (expectedId !== undefined && id !== expectedId) return mismatch(id, expectedId, ref);
  return undefined;
}

function checkErrorObject(message: Record<string, unknown>, ref: string): Envelope {
  const error = message.error;
  const id = message.id as string | number | null | undefined;
  if (!isRecord(error)) return invalid("ERROR_NOT_OBJECT", `"error" is ${typeName(error)}; it MUST be an object with code and message.`, ref, id);
  if (typeof error.code !== "number" || !Number.isSafeInteger(error.code)) {
    return invalid("ERROR_CODE_NOT_INTEGER", `error.code ${show(error.code)} is not an integer; error codes MUST be integers.`, ref, id);
  }
  if (typeof error.message !== "string") {
    return invalid("ERROR_MESSAGE_NOT_STRING", `error.message is ${typeName(error.message)}; it MUST be a string.`, ref, id);
  }
  const out: JsonRpcError = { code: error.code, message: error.message };
  if (has(error, "data")) out.data = error.data;
  return { kind: "error", id, error: out };
}
