import { z } from "zod";
import type { ElicitParams, ToolContext, ToolDefinition, ToolResult } from "../../src/mcp/tool.ts";
import { READ_ONLY } from "./content-tools.ts";

function isError(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function declared(ctx: ToolContext, capability: string): boolean {
  return Boolean(ctx.clientCapabilities[capability]);
}

async function elicitSummary(ctx: ToolContext, params: ElicitParams): Promise<ToolResult> {
  if (!declared(ctx, "elicitation")) return isError("The client did not declare the elicitation capability.");
  const answer = await ctx.elicit("form", params);
  return { content: [{ type: "text", text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
}

const DEFAULTS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "Your name", default: "John Doe" },
    age: { type: "integer", description: "Your age", default: 30 },
    score: { type: "number", description: "Your score", default: 95.5 },
    status: { type: "string", description: "Account status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verified account", default: true },
  },
};

const ENUMS_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", description: "Untitled single-select", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      description: "Titled single-select",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      description: "Legacy titled enum (enumNames is deprecated)",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", description: "Untitled multi-select", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      description: "Titled multi-select",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
};

/**
 * Tools that send server-to-client requests over the legacy (2025) wire: the answer is an SSE stream that
 * carries sampling/createMessage or elicitation/create before the result.
 */
export const INTERACTION_TOOLS: readonly ToolDefinition[] = [
  {
    name: "test_sampling",
    description: "Asks the client to sample an LLM with the given prompt (sampling/createMessage) and returns its answer.",
    args: z.object({ prompt: z.string().describe("The prompt to send to the LLM") }),
    annotations: READ_ONLY,
    asksForInput: true,
    needs: ["sampling"],
    run: async (args, ctx) => {
      if (!declared(ctx, "sampling")) return isError("The client did not declare the sampling capability.");
      const answer = await ctx.sample("sample", { messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100 });
      const first = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      const reply = typeof first?.text === "string" ? first.text : JSON.stringify(answer.content);
      return { content: [{ type: "text", text: `LLM response: ${reply}` }] };
    },
  },
  {
    name: "test_elicitation",
    description: "Asks the user for a username and an email (elicitation/create) and returns the answer.",
    args: z.object({ message: z.string().describe("The message to show the user") }),
    annotations: READ_ONLY,
    asksForInput: true,
    run: async (args, ctx) => {
      if (!declared(ctx, "elicitation")) return isError("The client did not declare the elicitation capability.");
      const answer = await ctx.elicit("user_info", {
        message: String(args.message),
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return { content: [{ type: "text", text: `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
    },
  },
  {
    name: "test_elicitation_sep1034_defaults",
    description: "Elicits a form whose string, integer, number, enum and boolean fields all carry defaults (SEP-1034).",
    args: z.object({}),
    annotations: READ_ONLY,
    asksForInput: true,
    run: async (_args, ctx) => elicitSummary(ctx, { message: "Please review your profile (every field has a default)", requestedSchema: DEFAULTS_SCHEMA }),
  },
  {
    name: "test_elicitation_sep1330_enums",
    description: "Elicits a form with the five enum shapes of SEP-1330: untitled and titled single-select, legacy enumNames, untitled and titled multi-select.",
    args: z.object({}),
    annotations: READ_ONLY,
    asksForInput: true,
    run: async (_args, ctx) => elicitSummary(ctx, { message: "Please pick some options", requestedSchema: ENUMS_SCHEMA }),
  },
];
