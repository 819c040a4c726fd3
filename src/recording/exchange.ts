import { z } from "zod";
import { EffectsSchema } from "../mcp/facts.ts";

/**
 * A recording: the exchanges of one session kept whole (not cut at the journal's display cap) for a replay. Bounded
 * by its own limits: past RECORDING_LIMITS.bodyBytes a body is cut, past RECORDING_LIMITS.sessionBytes an exchange is
 * not kept; either way the recording is marked truncated, and a replay refuses it.
 */
export const RECORDING_LIMITS = {
  /** Characters kept of one request or response body (a Durable Object's SQLite row holds at most 2 MB). */
  bodyBytes: 512 * 1024,
  /** Characters kept of all bodies of a session: the same 8 MiB an uploaded HAR may hold. */
  sessionBytes: 8 * 1024 * 1024,
  /** Exchanges kept of a session. */
  exchanges: 5_000,
} as const;

/**
 * One SSE event as it went out: the body up to `end` (characters) holds it whole, blank line included, and it was
 * sent `atMs` milliseconds after the request arrived.
 */
export const RecordedEventSchema = z.object({
  atMs: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;

/** What a replay matches a request by: its JSON-RPC method, tool name and canonical params digest (before redaction). */
export const MatchKeySchema = z.object({
  method: z.string(),
  tool: z.string().optional(),
  /** HMAC-SHA-256, under the recording's key, of the canonical call params (callParams: no _meta, requestState, inputResponses). */
  digest: z.string(),
});
export type MatchKey = z.infer<typeof MatchKeySchema>;

const BodySchema = z.object({ text: z.string(), truncated: z.boolean() });

export const RecordedExchangeSchema = z.object({
  time: z.string(),
  durationMs: z.number().int().nonnegative(),
  request: z.object({
    method: z.string(),
    headers: z.record(z.string(), z.string()),
    /** Redacted like the journal's: the match digest was taken before. */
    body: BodySchema,
  }),
  response: z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    /** Milliseconds from the request's arrival to the response's headers. */
    headersAtMs: z.number().int().nonnegative(),
    /** Kept as sent: a replay serves it. */
    body: BodySchema,
    /** An SSE body's events, with the time each one went out; the body text holds them. */
    events: z.array(RecordedEventSchema).optional(),
    /** The client went away this many ms after the request came, before the body ended: the body is what it was sent. */
    clientClosedAtMs: z.number().int().nonnegative().optional(),
  }),
  /** The request's JSON-RPC kind and id: a replayed answer carries the new request's id in its place. */
  rpc: z.object({ kind: z.enum(["request", "notification", "response", "invalid"]), id: z.union([z.string(), z.number(), z.null()]).optional() }),
  match: MatchKeySchema.optional(),
  effects: EffectsSchema.optional(),
});
export type RecordedExchange = z.infer<typeof RecordedExchangeSchema>;

export const RecordingSchema = z.object({
  /** Hex key of the match digests; it travels with the recording, so a replay digests requests alike. */
  key: z.string().regex(/^[0-9a-f]{64}$/),
  /** Why the recording is incomplete, when it is: a replay refuses it. */
  truncated: z.string().optional(),
  exchanges: z.array(RecordedExchangeSchema),
});
export type Recording = z.infer<typeof RecordingSchema>;

/** Characters an exchange counts against RECORDING_LIMITS.sessionBytes. */
export function exchangeSize(exchange: RecordedExchange): number {
  return exchange.request.body.text.length + exchange.response.body.text.length;
}
