import { z } from "zod";
import { BASE_TOOLS } from "../mcp/base-tools.ts";
import { InputRequired } from "../mcp/dispatch.ts";
import type { ElicitParams, ElicitResult, ToolContext, ToolDefinition, ToolResult } from "../mcp/tool.ts";

const ApprovalSchema = {
  type: "object",
  properties: {
    approved: { type: "boolean", title: "Approve", description: "Let this call go ahead" },
    reason: { type: "string", title: "Reason", description: "Why (optional)" },
  },
  required: ["approved"],
};

/** The elicitation that asks the user to approve a call to `toolName`. */
export function approvalRequest(toolName: string, mode: "form" | "url", note = ""): ElicitParams {
  return mode === "url"
    ? { mode: "url", message: `Approve ${toolName} in your browser${note}`, url: `https://faultline.invalid/approve/${toolName}` }
    : { mode: "form", message: `Approve the call to ${toolName}?${note}`, requestedSchema: ApprovalSchema };
}

/** A tool execution error (isError: true) carrying a sentence and, for clients that read it, structured details. */
export function refusal(message: string, details: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: message }], structuredContent: details, isError: true };
}

/** Input request keys: "approval" for the first round (as elicitation.approval uses), then "approval-2", ... */
const roundKey = (round: number) => (round === 1 ? "approval" : `approval-${round}`);

/**
 * Asks in up to `rounds` rounds, asking again while `again(answer)` holds. Legacy eras: one real
 * elicitation/create after another on the same stream. 2026-07-28: each round is a new input_required
 * result; the retry carries only the latest round's answer, so the rounds are probed from the last one down.
 */
export async function askRounds(
  ctx: ToolContext,
  request: (round: number) => ElicitParams,
  rounds: number,
  again: (answer: ElicitResult) => boolean,
): Promise<{ answer: ElicitResult; round: number }> {
  if (ctx.era === "legacy") {
    for (let round = 1; ; round++) {
      const answer = await ctx.elicit(roundKey(round), request(round));
      if (round >= rounds || !again(answer)) return { answer, round };
    }
  }
  for (let round = rounds; round >= 1; round--) {
    let answer: ElicitResult;
    try {
      answer = await ctx.elicit(roundKey(round), request(round));
    } catch (error) {
      // Not answered in this retry: try the round before, down to round 1, which asks from the start.
      if (error instanceof InputRequired && round > 1) continue;
      throw error;
    }
    if (round < rounds && again(answer)) await ctx.elicit(roundKey(round + 1), request(round + 1));
    return { answer, round };
  }
  throw new Error("unreachable: round 1 either answers or throws");
}

/** Params shared by the elicitation scenarios: which base tools ask first. */
export const ApprovalToolsSchema = z
  .array(z.string().min(1))
  .min(1)
  .default(["run_configured_test_scenario", "place_order"])
  .describe("Tools that need approval");

/** The base tools named in `names`, each wrapped by `wrap`. */
export function wrapBaseTools(names: readonly string[], wrap: (tool: ToolDefinition) => ToolDefinition): ToolDefinition[] {
  return BASE_TOOLS.filter((t) => names.includes(t.name)).map(wrap);
}
