// Placeholder surface; the classifier implementation replaces this file.
export { ExchangeSchema, HeadersSchema } from "./exchange.ts";
export type { Exchange, ClassifyOptions } from "./exchange.ts";
export { VerdictSchema, OutcomeSchema, LayerSchema, RetryDecisionSchema, FindingSchema } from "./verdict.ts";
export type { Verdict, Outcome, Layer, RetryDecision, Finding, RetryAdvice } from "./verdict.ts";
import type { Exchange, ClassifyOptions } from "./exchange.ts";
import type { Verdict } from "./verdict.ts";

export function classify(_exchange: Exchange, _options: ClassifyOptions = {}): Verdict {
  throw new Error("not implemented");
}
