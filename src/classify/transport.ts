import type { JsonRpcError } from "./envelope.ts";
import { adviseError, errorCodeName } from "./error-codes.ts";
import type { ErrorAdvice } from "./error-codes.ts";
import { SpecRef } from "./findings.ts";
import { has, isRecord, show } from "./json.ts";
import { adviseHttpStatus, advice } from "./retry.ts";
import { responseId, verdict } from "./run.ts";
import type { Run } from "./run.ts";
import type { Verdict } from "./verdict.ts";
import { isModern } from "./version.ts";
import { saysSessionUnknown } from "./session-gone.ts";

/** A notification (or a legacy client response) that the server took: 202 with no body. */
export function accepted(run: Run, primary: unknown): Verdict {
  const { findings, status, request } = run;
  const ref = isModern(run.version) ? SpecRef.s26Sending : SpecRef.s1125Sending;
  if (status !== 202) findings.warning("NOTIFICATION_STATUS_NOT_202", `An accepted ${request.kind} MUST get 202 Accepted, not ${status}.`, ref);
  if (run.decoded.transport !== "empty") {
    const error = isRecord(primary) && isRecord(primary.error) ? ` (a JSON-RPC error ${show(primary.error.code)}: the receiver MUST NOT reply to a notification)` : "";
    findings.warning("NOTIFICATION_HAS_BODY", `An accepted ${request.kind} MUST get a response with no body${error}.`, ref);
  }
  if (request.kind === "response") {
    if (isModern(run.version)) findings.warning("CLIENT_RESPONSE_2026", "The client POSTed a JSON-RPC response; 2026-07-28 clients MUST NOT send responses.", SpecRef.s26Sending);
    else findings.info("CLIENT_RESPONSE_ACCEPTED", "The client's answer to a server-initiated request was accepted.", ref);
  }
  return verdict(run, "NOTIFICATION_ACCEPTED", advice("none", `The server accepted the ${request.kind}; nothing more is expected.`));
}

/** Any non-2xx status: HTTP_ERROR, with what the body says reported and used for the retry decision. */
export function httpError(run: Run, primary: unknown): Verdict {
  const { findings, status, request, decoded } = run;
  let bodyError: JsonRpcError | undefined;
  let bodyAdvice: ErrorAdvice | undefined;

  if (isRecord(primary) && isRecord(primary.error)) {
    const { code, message, data } = primary.error;
    if (typeof code === "number" && Number.isSafeInteger(code)) {
      bodyError = { code, message: typeof message === "string" ? message : "" };
      if (has(primary.error, "data")) bodyError.data = data;
      findings.info("HTTP_ERROR_BODY", `The ${status} body carries JSON-RPC error ${code} (${errorCodeName(code)}): ${show(bodyError.message, 160)}`);
      bodyAdvice = adviseError(bodyError, run.version, status, findings);
      if (primary.id === null) {
        findings.warning("ID_NULL", 'The error body has "id": null; MCP ids are never null (omit the id when the request id could not be read).', SpecRef.s26ErrorResponses);
      } else if (request.expectedId !== undefined && has(primary, "id") && primary.id !== request.expectedId) {
        findings.warning("ID_MISMATCH", `The error body's id ${show(primary.id)} is not the request id ${show(request.expectedId)}.`, SpecRef.s26ErrorResponses);
      }
    } else {
      findings.info("HTTP_ERROR_BODY", `The ${status} body carries a JSON-RPC error object with a non-integer code ${show(code)}.`);
    }
  } else if (isRecord(primary) && has(primary, "result")) {
    findings.warning("HTTP_ERROR_BODY_HAS_RESULT", `The ${status} body carries a JSON-RPC result; a non-2xx status is an HTTP error whatever the body says.`);
  } else if ((decoded.transport === "json" || decoded.transport === "other") && decoded.kind === "malformed") {
    findings.info("HTTP_ERROR_BODY_NOT_JSON", `The ${status} body is not JSON.`);
  } else if (decoded.transport !== "empty") {
    findings.info("HTTP_ERROR_BODY_NOT_JSONRPC", `The ${status} body is not a JSON-RPC error response.`);
  }

  if (bodyError !== undefined) missingDiscover(run, bodyError.code);
  const sessionRejected = bodyError !== undefined && /session/i.test(bodyError.message);
  const sessionUnknown = saysSessionUnknown(bodyError?.message);
  const statusInput = { status, version: run.version, request, headers: run.headers, now: run.now, findings, sessionRejected, sessionUnknown };
  const { retry, challenge } = adviseHttpStatus(bodyAdvice === undefined ? statusInput : { ...statusInput, bodyAdvice });
  return verdict(run, "HTTP_ERROR", retry, {
    code: bodyError?.code,
    jsonrpcError: bodyError,
    challenge,
    ...bodyAdvice?.details,
    id: responseId(primary),
  });
}


/** 2026-07-28 server/discover: servers MUST implement it; a -32601 for it is a server that skipped it. */
export function missingDiscover(run: Run, code: number): void {
  if (code !== -32601 || run.request.method !== "server/discover" || !isModern(run.version)) return;
  run.findings.warning(
    "DISCOVER_NOT_IMPLEMENTED",
    "The server answers server/discover with -32601; 2026-07-28 servers MUST implement it. Carry on without it: calling it is optional for clients, so send each request with its _meta and learn capabilities from the answers.",
    SpecRef.s26Discover,
  );
}
