import type { SessionExpiredVariant } from "./schema.ts";
import { ErrorCode, errorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { jsonResponse, textResponse } from "../wire/response.ts";

/** -32001: what the official SDK transports send with their 404 for a session they do not know. */
const SDK_SESSION_NOT_FOUND = -32001;
/** -32000: the implementation-defined server error the SDK's example servers send with their 400. */
const SDK_SERVER_ERROR = -32000;

const PAGE =
  "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n";

/**
 * The answer to a request on an MCP session that has expired, in one of the shapes real servers use. Only the
 * default (`not_found`) is what 2025-11-25 asks for (404); the others are what clients meet in the field.
 */
export function sessionExpiredResponse(variant: SessionExpiredVariant, requestId: RequestId | undefined): Response {
  switch (variant) {
    case "not_found":
      return jsonResponse(404, errorMessage(requestId, ErrorCode.InvalidRequest, "Session not found: the Mcp-Session-Id has expired"));
    case "not_found_32001":
      return jsonResponse(404, errorMessage(requestId, SDK_SESSION_NOT_FOUND, "Session not found"));
    case "bad_request_no_valid_session":
      // The example servers answer before reading the request's id, so theirs is null.
      return jsonResponse(400, { jsonrpc: "2.0", error: { code: SDK_SERVER_ERROR, message: "Bad Request: No valid session ID provided" }, id: null });
    case "unauthorized_session_not_found":
      return jsonResponse(401, errorMessage(requestId, SDK_SESSION_NOT_FOUND, "Session not found"));
    case "gone":
      return jsonResponse(410, errorMessage(requestId, ErrorCode.InvalidRequest, "Gone: the session has expired"));
    case "conflict":
      return jsonResponse(409, errorMessage(requestId, ErrorCode.InvalidRequest, "Conflict: the session is no longer active"));
    case "html_page":
      return textResponse(PAGE, { status: 404, headers: { "content-type": "text/html; charset=utf-8" } });
    case "empty_body":
      return new Response(null, { status: 404 });
  }
}
