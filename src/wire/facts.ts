/**
 * The wire facts more than one part of Faultline reads: the server answers with them, the classifier judges by them,
 * the checks, the CLI and the dashboard show them. Each has this one home. The file imports nothing, so the classifier
 * (zod only, run unchanged on any runtime) reads it as it is; the dashboard's browser modules get what they draw as
 * /assets/wire-facts.client.js, generated from here by src/dashboard/outcome-assets.ts.
 */

/**
 * The JSON-RPC error codes Faultline sends or knows, each with the name messages give it: JSON-RPC 2.0's standard
 * errors (section 5.1, spelled as it spells them) and MCP's own. The keys are the names code refers to them by.
 */
export const JSONRPC_ERRORS = {
  ParseError: { code: -32700, name: "Parse error" },
  InvalidRequest: { code: -32600, name: "Invalid Request" },
  MethodNotFound: { code: -32601, name: "Method not found" },
  InvalidParams: { code: -32602, name: "Invalid params" },
  InternalError: { code: -32603, name: "Internal error" },
  // Up to 2025-11-25; 2026-07-28 answers an unknown resource with -32602.
  ResourceNotFound: { code: -32002, name: "Resource not found" },
  // 2025-11-25 only; 2026-07-28 elicits URLs through MRTR.
  UrlElicitationRequired: { code: -32042, name: "URL elicitation required" },
  // 2026-07-28 only, each sent with HTTP 400.
  HeaderMismatch: { code: -32020, name: "Header mismatch" },
  MissingRequiredClientCapability: { code: -32021, name: "Missing required client capability" },
  UnsupportedProtocolVersion: { code: -32022, name: "Unsupported protocol version" },
} as const;

type JsonRpcErrors = typeof JSONRPC_ERRORS;

/** The code of each named error, as the server writes it (`ErrorCode.InvalidParams`). */
export const ERROR_CODES = Object.fromEntries(Object.entries(JSONRPC_ERRORS).map(([key, { code }]) => [key, code])) as {
  readonly [K in keyof JsonRpcErrors]: JsonRpcErrors[K]["code"];
};

const NAMES: ReadonlyMap<number, string> = new Map(Object.values(JSONRPC_ERRORS).map(({ code, name }) => [code, name]));

/** The name of a known JSON-RPC error code, or undefined for a code the table does not hold. */
export function jsonRpcErrorName(code: number): string | undefined {
  return NAMES.get(code);
}

/**
 * HTTP statuses a client may retry after a wait: the classifier's `conditional` advice and the checks' retry rules.
 * (The classifier also advises a bounded retry for a 5xx it cannot name, other than 501 and 505.)
 */
export const TRANSIENT_HTTP_STATUSES = [408, 429, 500, 502, 503, 504, 524] as const;
export type TransientHttpStatus = (typeof TRANSIENT_HTTP_STATUSES)[number];

/** The timing thresholds the checks judge by and the dashboard's timeline draws. */
export const TIMING = {
  /** A retry sooner than this after a failure, with no Retry-After asked, has no backoff at all. */
  noBackoffMs: 100,
} as const;
