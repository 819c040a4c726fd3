import { z } from "zod";
import type { RateLimitFields } from "../../src/faults/schema.ts";

/** The params that add RateLimit header fields to a rate-limit scenario's 429s, shared by the three of them. */
export const RateLimitParams = {
  rateLimit: z
    .enum(["none", "ietf", "draft", "x"])
    .default("none")
    .describe('RateLimit header fields with a spent quota and a reset of `seconds`: "ietf" RateLimit-Policy + RateLimit (the current httpapi draft), "draft" RateLimit-Limit/-Remaining/-Reset, "x" X-RateLimit-* (the reset a Unix time)'),
  quota: z.number().int().min(1).max(1_000_000).default(100).describe("The RateLimit policy's quota, in requests"),
  window: z.number().int().min(1).max(86_400).default(60).describe("The RateLimit policy's window, in seconds"),
};

/** The fault's `rateLimit`, when the params ask for one: the quota spent, available again in `resetSeconds`. */
export function rateLimitOf(params: { rateLimit: "none" | RateLimitFields["form"]; quota: number; window: number }, resetSeconds: number): { rateLimit?: RateLimitFields } {
  if (params.rateLimit === "none") return {};
  return { rateLimit: { form: params.rateLimit, policy: "default", quota: params.quota, windowSeconds: params.window, resetSeconds } };
}
