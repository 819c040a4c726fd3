import { z } from "zod";
import { ERROR_CODES, jsonRpcErrorName } from "./facts.ts";

/** JSON-RPC and MCP error codes used on the wire (a view of JSONRPC_ERRORS, their one table). */
export const ErrorCode = ERROR_CODES;

/** The message of an injected error whose scenario named none: it follows the code, so -32603 never says "Invalid params". */
export function injectedErrorMessage(code: number): string {
  // JSON-RPC 2.0 reserves -32000 to -32099 for implementation-defined server errors.
  const meaning = jsonRpcErrorName(code) ?? (code <= -32000 && code >= -32099 ? "Server error" : "Error");
  return `${meaning} (injected by Faultline)`;
}

export const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const ParamsSchema = z.record(z.string(), z.unknown());

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

export const JsonRpcErrorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A client's answer to a server-to-client request (legacy eras only). */
export const JsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal("2.0"), id: RequestIdSchema, result: z.record(z.string(), z.unknown()) }),
  z.object({ jsonrpc: z.literal("2.0"), id: RequestIdSchema.optional(), error: JsonRpcErrorObjectSchema }),
]);
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sorts a parsed body into request, notification or response; undefined when it is none of them. */
export function readMessage(body: unknown): IncomingMessage | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  if ("method" in body) {
    if ("id" in body) {
      const parsed = JsonRpcRequestSchema.safeParse(body);
      return parsed.success ? { kind: "request", message: parsed.data } : undefined;
    }
    const parsed = JsonRpcNotificationSchema.safeParse(body);
    return parsed.success ? { kind: "notification", message: parsed.data } : undefined;
  }
  const parsed = JsonRpcResponseSchema.safeParse(body);
  return parsed.success ? { kind: "response", message: parsed.data } : undefined;
}

/** A JSON-RPC error that is sent to the MCP client, with the HTTP status it travels with. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly httpStatus: number;

  constructor(code: number, message: string, options: { data?: unknown; httpStatus?: number } = {}) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = options.data;
    this.httpStatus = options.httpStatus ?? 200;
  }
}

export function resultMessage(id: RequestId, result: Record<string, unknown>) {
  return { jsonrpc: "2.0" as const, id, result };
}

/** An error response; `id` is omitted when the request id could not be read (2025-11-25 and later). */
export function errorMessage(id: RequestId | undefined, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: "2.0" as const,
    ...(id === undefined ? {} : { id }),
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}
