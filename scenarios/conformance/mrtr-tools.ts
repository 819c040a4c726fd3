import { z } from "zod";
import { text, type ElicitParams, type ElicitResult, type RootsResult, type SampleResult, type ToolContext, type ToolDefinition } from "../../src/mcp/tool.ts";
import { READ_ONLY } from "./content-tools.ts";

/** A one-field form: `message` asks for `field` (a string, or another type). */
export function ask(message: string, field: string, type = "string"): ElicitParams {
  return { message, requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] } };
}

function said(answer: ElicitResult, field: string): string {
  return answer.action === "accept" ? String(answer.content?.[field] ?? "") : `(${answer.action})`;
}

function sampled(answer: SampleResult): string {
  const first = Array.isArray(answer.content) ? answer.content[0] : answer.content;
  return typeof first?.text === "string" ? first.text : JSON.stringify(answer.content);
}

function rootList(answer: RootsResult): string {
  return answer.roots.map((r) => r.uri).join(", ") || "(none)";
}

const CAPITAL = { messages: [{ role: "user" as const, content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 };
const GREETING = { messages: [{ role: "user" as const, content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 };

/** Says which round trip carried the answers; 2026-07-28 answers only count next to a requestState that verified. */
function via(ctx: ToolContext): string {
  return ctx.era === "modern" ? "state-ok: the requestState verified" : "answered over the legacy SSE stream";
}

/** Asks for one confirmation; the requestState and tampered-state fixtures differ only in what the suite does with it. */
const confirm: ToolDefinition["run"] = async (_args, ctx) => {
  const answer = await ctx.elicit("confirm", ask("Please confirm", "ok", "boolean"));
  return text(`Confirmation ${answer.action}; ${via(ctx)}.`);
};

function mrtrTool(name: string, description: string, run: ToolDefinition["run"], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description, args: z.object({}), annotations: READ_ONLY, asksForInput: true, run, ...extra };
}

/**
 * Multi round-trip request fixtures (SEP-2322). 2026-07-28: the first call returns input_required with the named
 * inputRequests and a signed requestState; the retry with inputResponses completes. Legacy eras: the same
 * questions go to the client as real requests on the response stream.
 */
export const MRTR_TOOLS: readonly ToolDefinition[] = [
  mrtrTool(
    "test_input_required_result_elicitation",
    "Asks for the user's name (inputRequests.user_name, elicitation/create), then greets them. Accepts the answer with or without a requestState.",
    async (_args, ctx) => text(`Hello, ${said(await ctx.elicit("user_name", ask("What is your name?", "name")), "name")}!`),
    { acceptsUnsignedInput: true },
  ),
  mrtrTool(
    "test_input_required_result_sampling",
    "Asks the client to sample an answer to 'What is the capital of France?' (inputRequests.capital_question) and returns it.",
    async (_args, ctx) => text(`The client's model answered: ${sampled(await ctx.sample("capital_question", CAPITAL))}`),
    { needs: ["sampling"] },
  ),
  mrtrTool(
    "test_input_required_result_list_roots",
    "Asks the client for its roots (inputRequests.client_roots, roots/list) and lists them.",
    async (_args, ctx) => text(`The client's roots: ${rootList(await ctx.listRoots("client_roots"))}`),
    { needs: ["roots"] },
  ),
  mrtrTool(
    "test_input_required_result_request_state",
    "Asks for a confirmation (inputRequests.confirm) with a signed requestState; the retry must echo it.",
    confirm,
  ),
  mrtrTool(
    "test_input_required_result_multiple_inputs",
    "Asks three things at once: a name (user_name), a sampled greeting (greeting) and the client's roots (client_roots).",
    async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit("user_name", ask("What is your name?", "name")),
        ctx.sample("greeting", GREETING),
        ctx.listRoots("client_roots"),
      ]);
      return text(`${sampled(greeting)}, ${said(name, "name")}! Roots: ${rootList(roots)}.`);
    },
    { needs: ["elicitation", "sampling", "roots"] },
  ),
  mrtrTool(
    "test_input_required_result_multi_round",
    "Asks in two rounds: a name (step1), then a favourite colour (step2); the requestState changes between rounds.",
    async (_args, ctx) => {
      const name = await ctx.elicit("step1", ask("Step 1: What is your name?", "name"));
      const color = await ctx.elicit("step2", ask("Step 2: What is your favorite color?", "color"));
      return text(`${said(name, "name")} likes ${said(color, "color")}.`);
    },
  ),
  mrtrTool(
    "test_input_required_result_tampered_state",
    "Asks for a confirmation with an HMAC-signed requestState; a retry with a modified state gets -32602.",
    confirm,
  ),
  mrtrTool(
    "test_input_required_result_capabilities",
    "Asks only for what the client declared: a name through elicitation when it can, otherwise a sampled name.",
    async (_args, ctx) => {
      if (ctx.clientCapabilities.elicitation) return text(`Hello, ${said(await ctx.elicit("user_name", ask("What is your name?", "name")), "name")}!`);
      if (ctx.clientCapabilities.sampling) {
        const answer = await ctx.sample("name_suggestion", { messages: [{ role: "user", content: { type: "text", text: "Suggest a name" } }], maxTokens: 20 });
        return text(`Hello, ${sampled(answer)}!`);
      }
      return text("The client declared neither elicitation nor sampling, so nothing was asked.");
    },
    { needs: [] },
  ),
];
