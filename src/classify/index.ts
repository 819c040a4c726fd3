/**
 * The classifier's public surface: pure, runtime-neutral, depending only on zod. Everything outside
 * src/classify/ imports from here (test/classify/surface-gate.pending.ts holds that).
 */
export { classify } from "./classify.ts";
export { ExchangeSchema, HeadersSchema, BodySchema } from "./exchange.ts";
export type { Exchange, ClassifyOptions, Headers } from "./exchange.ts";
export {
  CLASSIFIER_VERSION,
  VerdictSchema,
  OutcomeSchema,
  LayerSchema,
  RetryDecisionSchema,
  RetryAdviceSchema,
  FindingSchema,
  ProtocolVersionSchema,
} from "./verdict.ts";
export type { Verdict, Outcome, Layer, RetryDecision, RetryAdvice, Finding, ProtocolVersion } from "./verdict.ts";
export { OUTCOME_LAYER, OUTCOMES } from "./outcome.ts";
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF_MS } from "./retry.ts";
export { sessionGoneReading, type SessionGoneReading } from "./session-gone.ts";

// Input adapters: the shapes POST /classify and the CLI accept (an exchange, an array, a HAR, a raw
// HTTP response) turned into exchanges, with issues that name the path and the rule.
export {
  parseClassifyInput,
  parseExchangeInput,
  exchangeFromRawHttp,
  looksLikeRawHttp,
  parseJsonText,
  sseBodyAlone,
  formatPath,
  issuesFromZod,
  NestedExchangeInputSchema,
  FlatExchangeInputSchema,
  HttpMessageParamsSchema,
} from "./input.ts";
export type {
  ClassifyInput,
  InputIssue,
  InputError,
  InputResult,
  InputOptions,
  NestedExchangeInput,
  FlatExchangeInput,
  HttpMessageParams,
} from "./input.ts";
export { HarSchema, looksLikeHar, exchangesFromHar } from "./har.ts";
export type { Har, HarEntry, HarExchange, HarSkip } from "./har.ts";
export { parseHttpMessage } from "./http-message.ts";
export type { HttpMessage, HttpMessageError, HttpMessageResult } from "./http-message.ts";

// Readers for the parts of a response the verdict is built from.
export { parseSse } from "./sse.ts";
export type { SseEvent, SseStream } from "./sse.ts";
export { retryAfter } from "./retry-after.ts";
export type { RetryAfter } from "./retry-after.ts";
export { parseHttpDate } from "./http-date.ts";
export { parseChallenges } from "./auth.ts";
export type { Challenge } from "./auth.ts";
export { schemaMismatch } from "./json-schema.ts";

// Total helpers for JSON of unknown shape, which the classifier's callers need as much as it does.
export { isRecord, show } from "./json.ts";
