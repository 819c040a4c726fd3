import { z } from "zod";
import { isRecord } from "./json.ts";

/** Header maps are case-insensitive on the wire; the classifier lower-cases names itself. */
export const HeadersSchema = z.record(z.string(), z.string());
export type Headers = z.infer<typeof HeadersSchema>;

/** A body is either the raw text as received, or JSON that has already been parsed. */
export const BodySchema = z.unknown();

/** One HTTP exchange in the normalized form that classify() takes. */
export const ExchangeSchema = z.object({
  request: z
    .object({
      /** The request's HTTP method (POST when absent): a GET opens a stream, a DELETE ends a session. */
      method: z.string().optional(),
      headers: HeadersSchema.optional(),
      body: BodySchema.optional(),
    })
    .optional(),
  response: z.object({
    status: z.number().int().min(100).max(599),
    headers: HeadersSchema.optional(),
    body: BodySchema,
  }),
  /** The JSON-RPC id the response must carry; taken from request.body.id when absent. */
  expectedId: z.union([z.string(), z.number().int()]).optional(),
  /** The JSON-RPC method of the request; taken from request.body.method, else "tools/call". */
  method: z.string().optional(),
  protocolVersion: z.string().optional(),
  /**
   * tools/call: the called tool's outputSchema (as tools/list declared it). With it, structuredContent is checked
   * against the schema (STRUCTURED_CONTENT_MISMATCH, STRUCTURED_CONTENT_MISSING); without it, it cannot be.
   */
  outputSchema: z.record(z.string(), z.unknown()).optional(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/**
 * True only when `value` certainly passes ExchangeSchema: plain objects, string header values,
 * an integer status from 100 to 599 and a present body. classify() asks zod only when this says
 * false, so the common case skips building zod's copy of the exchange; it may say false for a
 * valid exchange (zod then decides) but never true for an invalid one
 * (test/classify/exchange-shape.test.ts holds that).
 */
export function surelyExchange(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { request, response, expectedId, method, protocolVersion, outputSchema } = value;
  if (outputSchema !== undefined && !isRecord(outputSchema)) return false;
  if (request !== undefined && !(isRecord(request) && optionalHeaders(request.headers) && (request.method === undefined || typeof request.method === "string"))) return false;
  if (!isRecord(response) || !Object.hasOwn(response, "body") || !optionalHeaders(response.headers)) return false;
  const status = response.status;
  if (!(typeof status === "number" && Number.isSafeInteger(status) && status >= 100 && status <= 599)) return false;
  if (expectedId !== undefined && typeof expectedId !== "string" && !Number.isSafeInteger(expectedId)) return false;
  return (method === undefined || typeof method === "string") && (protocolVersion === undefined || typeof protocolVersion === "string");
}

// Stricter than zod's record, which reads enumerable own keys: a null or Object.prototype
// prototype, string values only, and no symbol keys at all.
function optionalHeaders(headers: unknown): boolean {
  if (headers === undefined) return true;
  if (!isRecord(headers)) return false;
  const proto = Object.getPrototypeOf(headers);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(headers)) {
    if (typeof headers[key] !== "string") return false;
  }
  return Object.getOwnPropertySymbols(headers).length === 0;
}

export interface ClassifyOptions {
  /** Milliseconds since the epoch; used for Retry-After HTTP-dates without a Date header. */
  now?: number;
}
