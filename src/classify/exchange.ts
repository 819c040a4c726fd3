import { z } from "zod";

/** Header maps are case-insensitive on the wire; the classifier lower-cases names itself. */
export const HeadersSchema = z.record(z.string(), z.string());
export type Headers = z.infer<typeof HeadersSchema>;

/** A body is either the raw text as received, or JSON that has already been parsed. */
export const BodySchema = z.unknown();

/** One HTTP exchange in the normalized form that classify() takes. */
export const ExchangeSchema = z.object({
  request: z
    .object({
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
});
export type Exchange = z.infer<typeof ExchangeSchema>;

export interface ClassifyOptions {
  /** Milliseconds since the epoch; used for Retry-After HTTP-dates without a Date header. */
  now?: number;
}
