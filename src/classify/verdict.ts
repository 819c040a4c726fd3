import { z } from "zod";

/** Every outcome the classifier can return. */
export const OutcomeSchema = z.enum([
  "TOOL_SUCCESS",
  "HTTP_ERROR",
  "JSONRPC_ERROR",
  "TOOL_ERROR",
  "INPUT_REQUIRED",
  "MALFORMED_JSON",
  "INVALID_ENVELOPE",
  "INVALID_TOOL_RESULT",
  "NOTIFICATION_ACCEPTED",
  "STREAM_INCOMPLETE",
  "STREAM_OPEN",
  "SESSION_ENDED",
  "TASK_CREATED",
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const LayerSchema = z.enum(["transport", "protocol", "interaction", "application"]);
export type Layer = z.infer<typeof LayerSchema>;

export const RetryDecisionSchema = z.enum([
  "none",
  "conditional",
  "fix-input",
  "follow-up",
  "tool-semantics",
  "investigate",
  "do-not-retry",
  "reauthorize",
  "renegotiate",
  "reinitialize",
  "legacy-fallback",
  "answer-server-request",
]);
export type RetryDecision = z.infer<typeof RetryDecisionSchema>;

export const RetryAdviceSchema = z.object({
  decision: RetryDecisionSchema,
  afterMs: z.number().int().nonnegative().optional(),
  reason: z.string(),
  maxAttempts: z.number().int().nonnegative().optional(),
  initialBackoffMs: z.number().int().nonnegative().optional(),
  inputKeys: z.array(z.string()).optional(),
  supportedVersions: z.array(z.string()).optional(),
  /** The spec section the decision follows, where the decision is one a client would not guess. */
  specRef: z.string().optional(),
  /** answer-server-request: the server's requests on the stream that still wait for the client's answer. */
  pendingRequests: z.array(z.object({ method: z.string(), id: z.union([z.string(), z.number()]) })).optional(),
});
export type RetryAdvice = z.infer<typeof RetryAdviceSchema>;

export const FindingSchema = z.object({
  severity: z.enum(["error", "warning", "info"]),
  code: z.string(),
  message: z.string(),
  specRef: z.string().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const ProtocolVersionSchema = z.enum(["2025-06-18", "2025-11-25", "2026-07-28"]);
export type ProtocolVersion = z.infer<typeof ProtocolVersionSchema>;

/**
 * The edition of the classifier's rules, carried in every verdict so that a stored verdict says
 * which rules judged it. Raised whenever the same exchange can get a different outcome or layer.
 * 2: the seed's verdicts (an empty JSON body is MALFORMED_JSON, INVALID_TOOL_RESULT is in the
 * protocol layer, an error response without an id is INVALID_ENVELOPE). 3: a 400 to a 2026-07-28
 * request without a modern error code is legacy-fallback; a legacy stream cut while the server's
 * own request waits is answer-server-request. 4: a result with resultType "task" (SEP-2663's
 * CreateTaskResult) is TASK_CREATED, no longer INVALID_TOOL_RESULT, and a tasks/get answer is read by
 * the task's status. Verdicts without the field came from the rules before that (edition 1).
 */
export const CLASSIFIER_VERSION = 4;

/** The classifier's answer: one outcome, the layer it belongs to, retry advice and every finding. */
export const VerdictSchema = z
  .object({
    outcome: OutcomeSchema,
    layer: LayerSchema,
    status: z.number().int().optional(),
    code: z.number().int().optional(),
    retry: RetryAdviceSchema,
    findings: z.array(FindingSchema),
    /** The edition of the rules (CLASSIFIER_VERSION); absent in verdicts stored before edition 2. */
    classifierVersion: z.number().int().positive().optional(),
    protocolVersion: ProtocolVersionSchema.optional(),
    protocolVersionSource: z.enum(["input", "header", "meta", "detected", "default"]).optional(),
    transport: z.enum(["json", "sse", "empty", "other"]).optional(),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .catchall(z.unknown());
export type Verdict = z.infer<typeof VerdictSchema>;
