import { z } from "zod";

// MCP Test Kitchen's params of the scenarios whose ids Faultline shares (elicitation.*, compat.sdk_v2,
// catalog.mutation), so a session created with Test Kitchen's own params is accepted. Each is accepted with Test
// Kitchen's type and default; where Faultline asks with its own wording, schema or timing, its describe() says so.

const kept = (what: string) => `MCP Test Kitchen: ${what}. Accepted for compatibility; Faultline keeps its own`;

export const PROMPT_MESSAGE = z.string().min(1).max(2_000).optional().describe(kept("the elicitation's message"));
export const ELICITATION_TIMEOUT_MS = (ms: number) =>
  z.number().int().min(0).max(3_600_000).default(ms).describe(kept("how long the server waits for the answer; Faultline waits within the response deadline"));

/** elicitation.approval */
export const TestKitchenApprovalShape = {
  promptMessage: PROMPT_MESSAGE,
  reasonFieldTitle: z.string().min(1).max(200).default("Reason (recorded for audit)").describe(kept("the title of the form's reason field")),
  reasonMaxLength: z.number().int().min(1).max(10_000).default(200).describe(kept("the reason field's maxLength")),
  requireReason: z.boolean().default(true).describe(kept("whether the reason field is required")),
  elicitationTimeoutMs: ELICITATION_TIMEOUT_MS(300_000),
};

/** elicitation.decline: Test Kitchen never reads expectedOutcome. */
export const TestKitchenDeclineShape = {
  expectedOutcome: z.string().min(1).max(64).default("decline").describe("MCP Test Kitchen: never read there either; accepted"),
  promptMessage: PROMPT_MESSAGE,
  elicitationTimeoutMs: ELICITATION_TIMEOUT_MS(5_000),
};

/** elicitation.url_mode */
export const TestKitchenUrlModeShape = {
  url: z.url().max(2_048).default("https://example.com/approve").describe(kept("the URL the user is sent to")),
  promptMessage: PROMPT_MESSAGE,
  elicitationTimeoutMs: ELICITATION_TIMEOUT_MS(300_000),
};

/** compat.sdk_v2 */
export const TestKitchenCompatShape = {
  defaultCloseReason: z.string().min(1).max(200).default("completed").describe(kept("the close reason simulate_ticket_close_mrtr records")),
  promptMessage: PROMPT_MESSAGE,
};

/** catalog.mutation: Test Kitchen's timed mutations have no counterpart; its default (none) is accepted. */
export const TestKitchenMutationShape = {
  mutations: z
    .array(z.unknown())
    .max(0, "timed mutations are not supported: use afterListCalls or the trigger_tool_change tool")
    .default([])
    .describe("MCP Test Kitchen: timed catalogue changes; only [] (its default) is accepted"),
};
