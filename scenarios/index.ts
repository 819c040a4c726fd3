import { z } from "zod";
import type { Scenario } from "../src/scenario.ts";
import baseline from "./baseline.ts";
import httpStatusSequence from "./errors/http-status-sequence.ts";
import jsonrpcError from "./errors/jsonrpc-error.ts";
import toolError from "./errors/tool-error.ts";
import approval from "./elicitation/approval.ts";

/** The registry: one import and one entry per scenario file. */
export const SCENARIOS: readonly Scenario[] = [baseline, httpStatusSequence, jsonrpcError, toolError, approval];

/** Params every scenario accepts besides its own. */
const CommonParams = {
  responseMode: z.enum(["json", "sse"]).default("json").describe("Answer requests with one JSON body or on an SSE stream"),
};

export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}

/** The full params schema of a scenario: its own fields, the common ones, and no unknown keys. */
export function paramsSchema(scenario: Scenario): z.ZodObject {
  const own = scenario.params as unknown as z.ZodObject;
  return z.strictObject({ ...own.shape, ...CommonParams });
}

export function catalogue() {
  return SCENARIOS.map((s) => ({
    id: s.id,
    title: s.title,
    summary: s.summary,
    layer: s.layer,
    params: z.toJSONSchema(paramsSchema(s), { io: "input", target: "draft-2020-12" }),
    example: s.example,
  }));
}
