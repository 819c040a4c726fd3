import { ErrorCode, RpcError } from "../wire/jsonrpc.ts";
import type { Era } from "../wire/versions.ts";

/**
 * A request that cannot be served without a client capability the client did not declare, refused the same way in
 * both eras: a JSON-RPC error whose message names the capability and whose data.requiredCapabilities says which.
 *
 * 2026-07-28 names the error: -32021 MissingRequiredClientCapability with HTTP 400. 2025-11-25 names none (it says
 * only that both parties MUST use the negotiated capabilities), and -32021 is a 2026-07-28 code: a legacy client
 * reads it as a sign that the server speaks the modern protocol (the classifier flags it, ERROR_CODE_NOT_IN_VERSION).
 * So legacy eras get -32600 Invalid Request (the request is one this session cannot serve, whatever its params, so
 * not -32602) with HTTP 200, the status of every other legacy JSON-RPC error, and the same message and data.
 */
export function capabilityRefusal(era: Era, what: string, requiredCapabilities: Record<string, Record<string, unknown>>): RpcError {
  const data = { requiredCapabilities };
  if (era === "modern") return new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${what}`, { httpStatus: 400, data });
  return new RpcError(ErrorCode.InvalidRequest, `Missing required client capability: ${what} (declare it in initialize's capabilities)`, { data });
}
