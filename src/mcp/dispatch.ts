import { z } from "zod";
import { ErrorCode, RpcError } from "./jsonrpc.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "./tool.ts";
import { META, SERVER_INFO, SUPPORTED_VERSIONS } from "./versions.ts";

export type Handler = (params: Record<string, unknown>, ctx: DispatchContext) => Promise<Record<string, unknown>>;

export interface DispatchContext extends ToolContext {
  tools: readonly ToolDefinition[];
}

/** Thrown by a stateless elicit() when the answer is not in the request yet. */
export class InputRequired extends Error {
  readonly requests: Record<string, { method: string; params: Record<string, unknown> }>;
  constructor(requests: Record<string, { method: string; params: Record<string, unknown> }>) {
    super("input required");
    this.name = "InputRequired";
    this.requests = requests;
  }
}

export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  resources: {},
  prompts: {},
  logging: {},
} as const;

/** The wire form of a tool, with its JSON Schema generated from the zod args. */
export function toolDescriptor(tool: ToolDefinition): Record<string, unknown> {
  const generated = z.toJSONSchema(tool.args, { target: "draft-2020-12" }) as Record<string, unknown>;
  const { $schema: _s, ...inputSchema } = tool.inputSchema ?? generated;
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: { type: "object", ...inputSchema },
    annotations: tool.annotations,
  };
}

export function inputSchemaOf(tools: readonly ToolDefinition[], name: string): Record<string, unknown> | undefined {
  const tool = tools.find((t) => t.name === name);
  return tool ? (toolDescriptor(tool).inputSchema as Record<string, unknown>) : undefined;
}

async function callTool(params: Record<string, unknown>, ctx: DispatchContext): Promise<ToolResult> {
  const name = params.name;
  if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "Invalid params: params.name must be a string");
  const tool = ctx.tools.find((t) => t.name === name);
  if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args = tool.args.safeParse(params.arguments ?? {});
  if (!args.success) {
    const detail = args.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
    // 2025-11-25 and later: input validation failures are tool execution errors.
    return { content: [{ type: "text", text: `Input validation error: ${detail}` }], isError: true };
  }
  return tool.run(args.data as Record<string, unknown>, ctx);
}

const COMMON: Record<string, Handler> = {
  "tools/list": async (_params, ctx) => ({
    tools: ctx.tools.map(toolDescriptor),
    ...(ctx.era === "modern" ? { ttlMs: 0, cacheScope: "public" } : {}),
  }),
  "tools/call": async (params, ctx) => ({ ...(await callTool(params, ctx)) }),
  "resources/list": async () => ({ resources: [] }),
  "resources/templates/list": async () => ({ resourceTemplates: [] }),
  "prompts/list": async () => ({ prompts: [] }),
};

const LEGACY_ONLY: Record<string, Handler> = {
  ping: async () => ({}),
  "logging/setLevel": async () => ({}),
};

const MODERN_ONLY: Record<string, Handler> = {
  "server/discover": async () => ({
    supportedVersions: [...SUPPORTED_VERSIONS],
    capabilities: SERVER_CAPABILITIES,
    instructions: "Faultline: an MCP server that injects faults chosen by the session's scenario.",
    ttlMs: 0,
    cacheScope: "public",
    _meta: { [META.serverInfo]: SERVER_INFO },
  }),
};

/** Finds the handler for a method in an era; scenario handlers come first. */
export function resolveHandler(
  era: "modern" | "legacy",
  method: string,
  extra: Record<string, Handler> = {},
): Handler | undefined {
  return extra[method] ?? COMMON[method] ?? (era === "modern" ? MODERN_ONLY[method] : LEGACY_ONLY[method]);
}
