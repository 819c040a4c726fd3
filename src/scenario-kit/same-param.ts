import type { z } from "zod";

/**
 * A check for a param known by two names (Faultline's and MCP Test Kitchen's): either may be given, both only with
 * the same value; otherwise an issue at `other` that names both.
 */
export function sameParam<K extends string>(own: K, other: K) {
  return (params: Partial<Record<K, unknown>>, ctx: z.RefinementCtx) => {
    const a = params[own];
    const b = params[other];
    if (a === undefined || b === undefined || a === b) return;
    ctx.addIssue({ code: "custom", path: [other], message: `conflicts with ${own} (${JSON.stringify(a)}): ${other} is another name for ${own}; give one of them, or both with the same value` });
  };
}
