import { z } from "zod";
import { challengeParam, challengeScope, headerValue } from "../base/header-safe.ts";
import { LEGACY_VERSIONS, MODERN_VERSION } from "../wire/versions.ts";

/** RateLimit header fields sent with a 429, in one of the forms deployments use (src/faults/rate-limit-headers.ts). */
export const RateLimitFieldsSchema = z.object({
  form: z.enum(["ietf", "draft", "x"]).describe('"ietf": RateLimit-Policy and RateLimit (the current httpapi draft); "draft": RateLimit-Limit/-Remaining/-Reset (its older versions); "x": X-RateLimit-Limit/-Remaining/-Reset, the reset a Unix time in seconds'),
  policy: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/).default("default").describe("The quota policy's name (ietf form)"),
  quota: z.number().int().min(1).max(1_000_000).default(100).describe("The policy's quota, in requests"),
  windowSeconds: z.number().int().min(1).max(86_400).default(60).describe("The policy's time window"),
  resetSeconds: z.number().int().min(0).max(86_400).describe("Seconds until quota is available again; the available quota is 0"),
});
export type RateLimitFields = z.infer<typeof RateLimitFieldsSchema>;

export const RetryAfterSchema = z
  .union([z.number().int().nonnegative(), headerValue()])
  .describe("Seconds to wait, or an HTTP-date; sent as Retry-After");

export const BodyKindSchema = z
  .enum(["empty", "text", "html", "json", "jsonrpc"])
  .describe("What the error body holds: nothing, plain text, an HTML page, a JSON object or a JSON-RPC error");
export type BodyKind = z.infer<typeof BodyKindSchema>;

/**
 * The default upper bound of a `progress` fault: twice the MCP SDKs' 60 s request timeout, the same bound the
 * timeout checks hold a client to (src/checks/timeouts.ts UNBOUNDED_WAIT_MS).
 */
export const PROGRESS_BOUND_MS = 120_000;

/**
 * How a server answers a request whose Mcp-Session-Id it no longer knows, as servers in the wild do; what each sends
 * is in src/faults/session-expired.ts.
 */
export const SessionExpiredVariantSchema = z
  .enum(["not_found", "not_found_32001", "bad_request_no_valid_session", "unauthorized_session_not_found", "gone", "conflict", "html_page", "empty_body"])
  .describe(
    "How the expired session is answered: not_found (404, JSON-RPC -32600, the default), not_found_32001 (404, -32001 \"Session not found\", what the SDK transports send), " +
      "bad_request_no_valid_session (400, -32000 \"Bad Request: No valid session ID provided\", id null, what the SDK's example servers send), " +
      "unauthorized_session_not_found (401, -32001 \"Session not found\", no WWW-Authenticate), gone (410, -32600), conflict (409, -32600), " +
      "html_page (404, a text/html page), empty_body (404, no body)",
  );
export type SessionExpiredVariant = z.infer<typeof SessionExpiredVariantSchema>;

/** The bounds of an `oversized` fault: one result of at most 8 MiB of added text or image data, or 20,000 blocks. */
export const OVERSIZED_MAX_BYTES = 8 * 1024 * 1024;
export const OVERSIZED_MAX_BLOCKS = 20_000;

/**
 * How a `bad_result` fault spoils a result. The structured ones concern a tool that declares an outputSchema:
 * structured_mismatch swaps structuredContent for an object that does not conform, structured_missing drops it, and
 * error_with_structured turns the result into isError: true with a non-conforming error object as structuredContent.
 */
export const BadResultVariantSchema = z.enum(["content_not_array", "unknown_result_type", "missing_result_type", "structured_mismatch", "structured_missing", "error_with_structured"]);
export type BadResultVariant = z.infer<typeof BadResultVariantSchema>;

/**
 * Every fault the interpreter can perform. Scenarios decide which one applies; src/faults/perform.ts performs it.
 * The same schema validates the `fault` of each rule in the `script` scenario.
 */
export const FaultSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("http_status"),
    status: z.number().int().min(400).max(599),
    retryAfter: RetryAfterSchema.optional(),
    body: BodyKindSchema.default("empty"),
  }),
  z.object({
    kind: z.literal("jsonrpc_error"),
    code: z.number().int(),
    message: z.string().optional().describe("Default: the meaning of the code, e.g. \"Internal error (injected by Faultline)\" for -32603"),
    data: z.unknown().optional(),
    httpStatus: z.number().int().min(200).max(599).default(200),
  }),
  z.object({ kind: z.literal("tool_error"), text: z.string().default("The tool failed (injected by Faultline).") }),
  z.object({ kind: z.literal("respond_sse") }),
  z.object({ kind: z.literal("delay"), ms: z.number().int().min(0).max(600_000) }),
  z.object({
    kind: z.literal("stall_stream"),
    ms: z.number().int().min(0).max(600_000).describe("How long the stream stays silent after its first event"),
  }),
  z.object({
    kind: z.literal("drip"),
    chunkBytes: z.number().int().min(1).max(65_536).default(8),
    intervalMs: z.number().int().min(1).max(10_000).default(250),
  }),
  z.object({
    kind: z.literal("hang"),
    ms: z.number().int().min(0).max(600_000).describe("How long the stream stays open, with keep-alives, before it is closed with no response"),
    keepAliveMs: z.number().int().min(10).max(60_000).default(5_000).describe("Interval between SSE keep-alive comments"),
  }),
  z.object({
    kind: z.literal("idle_cut"),
    ms: z.number().int().min(0).max(600_000).describe("The intermediary's idle window: a server silent this long gets the error page instead of its answer"),
    workMs: z.number().int().min(0).max(600_000).describe("How long the server behind stays silent before its answer (at least; a real source's own time counts)"),
    status: z.number().int().min(500).max(599).default(504).describe("The status of the intermediary's page, e.g. 504 (nginx, ALB), 524 (Cloudflare), 502 (ALB)"),
    page: z.enum(["cloudflare", "nginx", "alb"]).default("nginx").describe("Which kind of intermediary's HTML page it sends"),
  }),
  z.object({
    kind: z.literal("buffered"),
    hold: z.enum(["headers", "events"]).describe("headers: the status line and headers wait for the server's first byte; events: headers at once, every event of the stream held until it ends"),
    ms: z.number().int().min(0).max(600_000).describe("headers: how long the server behind is silent before its first byte; events: how long its stream runs before its answer"),
    intervalMs: z.number().int().min(100).max(60_000).default(1_000).describe("events: pause between the server's notifications/progress (SSE comments when the request has no progressToken)"),
  }),
  z.object({
    kind: z.literal("progress"),
    ms: z.number().int().min(0).max(600_000).describe("How long the call runs before its answer (a response past FAULTLINE_MAX_RESPONSE_SECONDS is cut at that deadline)"),
    intervalMs: z.number().int().min(10).max(60_000).default(5_000).describe("Pause between notifications/progress (between SSE comments when the request has no progressToken)"),
    patienceMs: z.number().int().min(0).max(600_000).default(60_000).describe("For the checks: a client that leaves earlier while progress arrives fails progress-patience"),
    boundMs: z.number().int().min(0).max(600_000).default(PROGRESS_BOUND_MS).describe("For the checks: a client still waiting at this point fails progress-bounded"),
  }),
  z.object({
    kind: z.literal("cut_stream"),
    priming: z.boolean().default(false).describe("Legacy only: send a priming event id and retry so the client can resume with Last-Event-ID"),
    retryMs: z.number().int().min(0).max(60_000).default(500),
  }),
  z.object({
    kind: z.literal("listen_stream"),
    events: z
      .array(z.enum(["with_id", "without_id", "empty_id"]))
      .max(16)
      .default([])
      .describe("What the stream sends, in order: a notification with a fresh event id, one without an id, one with an empty `id:` line"),
    priming: z.boolean().default(false).describe("Send a priming event first (an event id with empty data)"),
    retryMs: z.number().int().min(1).max(60_000).optional().describe("The SSE retry field, sent with the first event"),
    close: z.enum(["graceful", "drop"]).default("graceful").describe("graceful: the body ends; drop: the body is aborted, as a connection lost"),
    answer: z.boolean().default(false).describe("2026-07-28 subscriptions/listen: end with the listen request's complete result (its graceful closure)"),
  }),
  z.object({ kind: z.literal("malformed"), variant: z.enum(["invalid_json", "truncated_json", "wrong_content_type", "html_page"]) }),
  z.object({ kind: z.literal("envelope"), variant: z.enum(["wrong_id", "result_and_error", "no_jsonrpc", "null_id"]) }),
  z.object({ kind: z.literal("bad_result"), variant: BadResultVariantSchema }),
  z.object({
    kind: z.literal("oversized"),
    variant: z.enum(["text_mb", "many_blocks", "large_image"]).describe("text_mb: one text block of `bytes` characters; many_blocks: `blocks` text blocks; large_image: a PNG image block whose base64 data is `bytes` characters"),
    bytes: z.number().int().min(1024).max(OVERSIZED_MAX_BYTES).default(2 * 1024 * 1024).describe("text_mb and large_image: the added block's characters (at most 8 MiB)"),
    blocks: z.number().int().min(2).max(OVERSIZED_MAX_BLOCKS).default(5_000).describe("many_blocks: how many content blocks the result carries (at most 20,000)"),
  }),
  z.object({
    kind: z.literal("unauthorized"),
    scope: challengeScope().optional(),
    error: challengeParam().optional().describe("e.g. invalid_token"),
  }),
  z.object({ kind: z.literal("insufficient_scope"), scope: challengeScope().default("faultline:write") }),
  z.object({
    kind: z.literal("rate_limited"),
    retryAfter: RetryAfterSchema.nullable().default(1).describe("Seconds to wait, or an HTTP-date; null sends no Retry-After"),
    body: BodyKindSchema.default("jsonrpc"),
    rateLimit: RateLimitFieldsSchema.optional(),
  }),
  z.object({ kind: z.literal("session_expired"), variant: SessionExpiredVariantSchema.default("not_found") }),
  z.object({
    kind: z.literal("unsupported_version"),
    supported: z.array(z.string().min(1)).min(1).default([...LEGACY_VERSIONS]).describe("Versions the error says the server supports"),
    requested: z.string().default(MODERN_VERSION).describe("The version the client asked for"),
  }),
]);
export type Fault = z.infer<typeof FaultSchema>;
export type FaultInput = z.input<typeof FaultSchema>;

/**
 * Faults that answer for the transport: they replace the whole HTTP response (or hold the request back) before any
 * MCP processing, so they win over protocol validation and apply to notifications too. The rest shape the answer.
 */
export const TRANSPORT_FAULT_KINDS = ["http_status", "rate_limited", "unauthorized", "insufficient_scope", "session_expired", "delay"] as const satisfies readonly Fault["kind"][];
export type TransportFault = Extract<Fault, { kind: (typeof TRANSPORT_FAULT_KINDS)[number] }>;

export function isTransportFault(fault: Fault): fault is TransportFault {
  return (TRANSPORT_FAULT_KINDS as readonly string[]).includes(fault.kind);
}

/** A fault plus why the scenario chose it, as journalled. */
export interface Decision {
  fault: Fault;
  reason: string;
}
