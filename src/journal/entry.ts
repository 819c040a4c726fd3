import { z } from "zod";
import { VerdictSchema } from "../classify/index.ts";
import { RetryOriginSchema } from "./retry-origin.ts";
import { EffectsSchema } from "../mcp/facts.ts";

export { EffectsSchema, type Effects } from "../mcp/facts.ts";

/** A captured body: text up to the cap, with a visible marker when it was cut. */
export const CapturedBodySchema = z.object({
  text: z.string(),
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type CapturedBody = z.infer<typeof CapturedBodySchema>;

export const SseEventSchema = z.object({
  id: z.string().optional(),
  event: z.string().optional(),
  data: z.string(),
  retry: z.number().int().optional(),
});

/**
 * Proxy mode (src/proxy/): the upstream's side of an exchange. `mode` says how the answer came about: `forward` (the
 * upstream's answer, unchanged), `replace` (a fault answered; the upstream was not called) or `alter` (the upstream's
 * answer, changed by the fault). The request body sent upstream is the client's, unchanged; the upstream's body is
 * kept when it differs from what the client got (alter), with the classifier's verdict on it beside the entry's.
 */
export const ProxiedEntrySchema = z.object({
  upstream: z.string(),
  mode: z.enum(["forward", "replace", "alter"]),
  request: z.object({ headers: z.record(z.string(), z.string()) }).optional(),
  response: z
    .object({
      status: z.number().int(),
      headers: z.record(z.string(), z.string()),
      body: CapturedBodySchema.optional(),
    })
    .optional(),
  /** Why the upstream gave no answer (unreachable, or silent until the deadline). */
  error: z.string().optional(),
  note: z.string().optional(),
  verdict: VerdictSchema.optional(),
  /** tools/call: the called tool's annotations as the upstream's own tools/list declares them (src/proxy/tools.ts). */
  tool: z.object({ name: z.string(), annotations: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type ProxiedEntry = z.infer<typeof ProxiedEntrySchema>;

/** What an upstream answer source hands the journal for one exchange: its side, and the upstream's body when kept. */
export type UpstreamSide = { entry: ProxiedEntry; body?: { text: string; bytes: number } };

/** One exchange on a session's MCP endpoint, as journalled. */
export const JournalEntrySchema = z.object({
  seq: z.number().int().positive(),
  time: z.string(),
  durationMs: z.number().int().nonnegative(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: CapturedBodySchema,
  }),
  response: z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body: CapturedBodySchema,
    sseEvents: z.array(SseEventSchema).optional(),
    /** The response was closed at FAULTLINE_MAX_RESPONSE_SECONDS before it ended by itself. */
    cutByDeadline: z.literal(true).optional(),
    /** The client went away (closed the stream) this many ms after the request came, before the body ended; `body.bytes` is what it had been sent. */
    clientClosedAtMs: z.number().int().nonnegative().optional(),
  }),
  rpc: z.object({
    id: z.union([z.string(), z.number(), z.null()]).optional(),
    method: z.string().optional(),
    kind: z.enum(["request", "notification", "response", "invalid"]).optional(),
    toolName: z.string().optional(),
  }),
  era: z.enum(["modern", "legacy"]).optional(),
  protocolVersion: z.string().optional(),
  mcpSessionId: z.string().optional(),
  clientInfo: z.record(z.string(), z.unknown()).optional(),
  fault: z.object({ kind: z.string(), rule: z.string(), detail: z.record(z.string(), z.unknown()) }).optional(),
  scenario: z.string(),
  verdict: VerdictSchema.optional(),
  /**
   * HMAC-SHA-256 (per-session key) of the request's canonical call params, taken before redaction, so the checks
   * tell a resend with a changed password from a retry. Absent when the body was cut or is not a JSON-RPC request.
   */
  callDigest: z.string().optional(),
  /** tools/call only: whether the tool ran (see EffectsSchema). */
  effects: EffectsSchema.optional(),
  /** The seq of the previous failed attempt at the same call (same method and callDigest), when there is one. */
  retryOf: z.number().int().positive().optional(),
  /** Where that retry came from, as the wire reads (src/checks/retry-origin.ts). */
  retryOrigin: RetryOriginSchema.optional(),
  /** Set on the entries of a session with an upstream. */
  proxied: ProxiedEntrySchema.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;
export type NewJournalEntry = Omit<JournalEntry, "seq">;

export const TRUNCATION_MARKER = "…[truncated by Faultline]";
