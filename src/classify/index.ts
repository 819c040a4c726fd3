/** The classifier's public surface: pure, runtime-neutral, depending only on zod. */
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
export { OUTCOME_LAYER } from "./outcome.ts";
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF_MS } from "./retry.ts";
export { parseSse } from "./sse.ts";
export type { SseEvent, SseStream } from "./sse.ts";
export { parseHttpDate } from "./http-date.ts";
export { parseChallenges } from "./auth.ts";
export type { Challenge } from "./auth.ts";
