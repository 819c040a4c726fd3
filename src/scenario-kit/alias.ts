import { z } from "zod";
import type { Scenario } from "../mcp/scenario.ts";

/**
 * Another tool's name for a Faultline scenario (MCP Test Kitchen's ids): its own params, with their defaults, and a
 * zod transform from them to the params of the Faultline scenario that answers. Plain data; the registry turns it
 * into a Scenario with `aliasScenario`.
 */
export interface ScenarioAlias<P extends z.ZodObject = z.ZodObject> {
  /** The id as the other tool names it, e.g. timeout.init_hang. */
  id: string;
  /** The id of the Faultline scenario that answers. */
  answeredBy: string;
  /** The other tool's params with its defaults; unknown keys are refused like any scenario's. */
  params: P;
  /** Its params -> the answering scenario's own params (the registry validates the result with that scenario's schema). */
  map: (params: z.infer<P>) => Record<string, unknown>;
  /** One sentence: what the other tool documents and what answers it here. */
  summary: string;
}

export function defineAlias<P extends z.ZodObject>(alias: ScenarioAlias<P>): ScenarioAlias {
  return alias as unknown as ScenarioAlias;
}

/** How an alias's stored params name the scenario that answers and the params it runs with. */
export const AnsweredBySchema = z.object({ scenario: z.string(), params: z.record(z.string(), z.unknown()) });
export type AnsweredBy = z.infer<typeof AnsweredBySchema>;

type Stored = Record<string, unknown> & { answeredBy: AnsweredBy };

/**
 * The alias as a scenario: its id is the alias's, so the session stores and shows the id asked for; its parsed
 * params keep the alias's own (defaults applied) and add `answeredBy` with the answering scenario and its params,
 * so the session shows that too. Everything else (decide, tools, handlers, needs, judging, layer) is the answering
 * scenario's, with its params, so proxy mode refuses an alias exactly when it refuses the scenario behind it.
 * `targetParams` is the answering scenario's full params schema (the registry's paramsSchema).
 */
export function aliasScenario(alias: ScenarioAlias, target: Scenario, targetParams: z.ZodObject): Scenario {
  const inner = (params: unknown) => (params as Stored).answeredBy.params;
  const mapped = (own: Record<string, unknown>) => {
    const { responseMode, ...rest } = own;
    // responseMode is common to every scenario: it passes through to the one that answers.
    return targetParams.safeParse({ ...alias.map(rest as never), ...(responseMode === undefined ? {} : { responseMode }) });
  };
  const params = alias.params
    .superRefine((own, ctx) => {
      // The alias's own schema should make this impossible; if a mapping still falls outside the answering
      // scenario's rules, the client hears which rule, not a 500.
      const result = mapped(own);
      for (const issue of result.success ? [] : result.error.issues) {
        ctx.addIssue({ code: "custom", path: [], message: `maps to ${target.id} params.${issue.path.join(".")}: ${issue.message}` });
      }
    }, { when: (payload) => payload.issues.length === 0 })
    .overwrite((own) => {
      const result = mapped(own);
      return result.success ? { ...own, answeredBy: { scenario: target.id, params: result.data } } : own;
    });
  return {
    id: alias.id,
    title: `${alias.id}, answered by ${target.id}`,
    summary: alias.summary,
    layer: target.layer,
    params,
    example: {},
    ...(target.decide ? { decide: (input) => target.decide!({ ...input, params: inner(input.params) }) } : {}),
    ...(target.tools ? { tools: (p: unknown) => target.tools!(inner(p)) } : {}),
    ...(target.handlers ? { handlers: (p: unknown) => target.handlers!(inner(p)) } : {}),
    ...(target.needs ? { needs: target.needs } : {}),
    judging: target.judging,
  };
}
