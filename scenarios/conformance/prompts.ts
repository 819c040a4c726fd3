import type { Handler } from "../../src/mcp/dispatch.ts";
import { ErrorCode, RpcError } from "../../src/wire/jsonrpc.ts";
import { RED_PIXEL_PNG } from "./media.ts";
import { ask } from "./mrtr-tools.ts";
import { TEMPLATE_IDS } from "./resources.ts";

type Message = { role: "user" | "assistant"; content: Record<string, unknown> };
type Prompt = {
  description: string;
  arguments?: { name: string; description: string; required: boolean }[];
  get: (args: Record<string, string>, ctx: Parameters<Handler>[1]) => Promise<Message[]>;
};

const user = (content: Record<string, unknown>): Message => ({ role: "user", content });

const PROMPTS: Record<string, Prompt> = {
  test_simple_prompt: {
    description: "A prompt without arguments.",
    get: async () => [user({ type: "text", text: "This is a simple prompt for testing." })],
  },
  test_prompt_with_arguments: {
    description: "A prompt with two required arguments.",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    get: async (args) => [user({ type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })],
  },
  test_prompt_with_embedded_resource: {
    description: "A prompt that embeds the resource named by resourceUri.",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    get: async (args) => [
      user({ type: "resource", resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } }),
      user({ type: "text", text: "Please process the embedded resource above." }),
    ],
  },
  test_prompt_with_image: {
    description: "A prompt with an image.",
    get: async () => [user({ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }), user({ type: "text", text: "Please analyze the image above." })],
  },
  test_input_required_result_prompt: {
    description: "Asks the user for context first (2026-07-28: input_required with inputRequests.user_context).",
    get: async (_args, ctx) => {
      const answer = await ctx.elicit("user_context", ask("What context should the prompt use?", "context"));
      const context = answer.action === "accept" ? String(answer.content?.context ?? "") : `(${answer.action})`;
      return [user({ type: "text", text: `Use this context: ${context}` })];
    },
  },
};

const COMPLETIONS: Record<string, string[]> = {
  arg1: ["paris", "park", "party", "test", "testing"],
  arg2: ["world", "word", "work"],
};

function completion(values: string[], prefix: string) {
  const matches = values.filter((v) => v.startsWith(prefix));
  return { completion: { values: matches, total: matches.length, hasMore: false } };
}

/** prompts/list, prompts/get and completion/complete for the suites' fixture prompts. */
export const PROMPT_HANDLERS: Record<string, Handler> = {
  "prompts/list": async () => ({
    prompts: Object.entries(PROMPTS).map(([name, p]) => ({ name, description: p.description, ...(p.arguments ? { arguments: p.arguments } : {}) })),
  }),
  "prompts/get": async (params, ctx) => {
    const name = String(params.name);
    const prompt = PROMPTS[name];
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown prompt '${name}'`);
    const args = (params.arguments && typeof params.arguments === "object" ? params.arguments : {}) as Record<string, string>;
    const missing = (prompt.arguments ?? []).filter((a) => a.required && typeof args[a.name] !== "string").map((a) => a.name);
    if (missing.length > 0) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: missing required argument(s) ${missing.join(", ")}`);
    return { description: prompt.description, messages: await prompt.get(args, ctx) };
  },
  "completion/complete": async (params) => {
    const ref = (params.ref ?? {}) as Record<string, unknown>;
    const argument = (params.argument ?? {}) as Record<string, unknown>;
    const prefix = typeof argument.value === "string" ? argument.value : "";
    if (ref.type === "ref/prompt" && typeof ref.name === "string" && PROMPTS[ref.name]) {
      return completion(COMPLETIONS[String(argument.name)] ?? [], prefix);
    }
    if (ref.type === "ref/resource" && ref.uri === "test://template/{id}/data") {
      return completion(argument.name === "id" ? TEMPLATE_IDS : [], prefix);
    }
    throw new RpcError(ErrorCode.InvalidParams, "Invalid params: ref names no prompt or resource template of this server");
  },
};
