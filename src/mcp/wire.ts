import { errorMessage, type RequestId, type RpcError } from "./jsonrpc.ts";

/**
 * HTTP answers in MCP's shapes. This module sits below both the request pipeline and the fault interpreter
 * (src/faults/perform.ts): each answers through it, neither through the other.
 */

export const JSON_HEADERS = { "content-type": "application/json" } as const;

/** One JSON body; used for every JSON answer of the MCP endpoint, faulted or not. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** A JSON-RPC error answer with the status the error travels with. */
export function rpcErrorResponse(id: RequestId | undefined, error: RpcError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.httpStatus, errorMessage(id, error.code, error.message, error.data), headers);
}
