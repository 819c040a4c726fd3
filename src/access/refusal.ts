import { ErrorCode, errorMessage } from "../wire/jsonrpc.ts";
import { jsonResponse } from "../wire/response.ts";
import { isMcpPath } from "./paths.ts";

/**
 * A refusal in the shape the route's callers read: a JSON-RPC error with no id on the MCP endpoints (2025-11-25
 * transports, Security Warning: the body MAY be a JSON-RPC error), `{error: {code, message}}` everywhere else.
 */
export function refusal(path: string, status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  if (isMcpPath(path)) return jsonResponse(status, errorMessage(undefined, ErrorCode.InvalidRequest, message), headers);
  return jsonResponse(status, { error: { code, message } }, headers);
}
