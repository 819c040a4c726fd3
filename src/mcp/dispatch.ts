import { z } from "zod";
import { ErrorCode, RpcError } from "../wire/jsonrpc.ts";
import { LOG_LEVELS, type LogLevel, type ToolContext, type ToolDefinition, type ToolResult } from "./tool.ts";
import { META, SERVER_INFO, SERVER_INSTRUCTIONS, SUPPORTED_VERSIONS } from "../wire/versions.ts";
import { taskCall, TASK_HANDLERS } from "./tasks/handlers.ts";
import type { TaskStore } from "./tasks/store.ts";
import { isTaskTool, TASKS_EXTENSION } from "./tasks/tool.ts";

export type Handler = (params: Record<string, unknown>, ctx: DispatchContext) => Promise<Record<string, unknown>>;

export interface DispatchContext extends ToolContext {
  tools: readonly ToolDefinition[];
  /** Legacy initialize: stores the MCP session, only when its result is really produced (not when a fault replaces it). */
  openMcpSession(): void;
  /** Legacy logging/setLevel: the level for later notifications/message on this MCP session. */
  setLogLevel(level: LogLevel): void;
  /** The session's tasks (SEP-2663), kept by its Durable Object; absent where nothing keeps them. */
  taskStore?: TaskStore;
  now(): number;
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
  resources: { subscribe: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
} as const;

/**
 * resources/read of an unknown URI. 2026-07-28 (SEP-2164): -32602 with the uri in data; earlier revisions
 * name -32002 "Resource not found" (server/resources.mdx, Error Handling).
 */
export function resourceNotFound(era: "modern" | "legacy", uri: unknown): RpcError {
  return new RpcError(era === "modern" ? ErrorCode.InvalidParams : -32002, "Resource not found", { data: { uri } });
}

/** Generated JSON Schemas by zod args: tools/list and every 2026 tools/call (x-mcp-header checks) need them. */
const GENERATED = new WeakMap<z.ZodObject, Record<string, unknown>>();

function generatedSchema(args: z.ZodObject): Record<string, unknown> {
  let schema = GENERATED.get(args);
  if (!schema) {
    const { $schema: _s, ...rest } = z.toJSONSchema(args, { target: "draft-2020-12" }) as Record<string, unknown>;
    schema = rest;
    GENERATED.set(args, schema);
  }
  return schema;
}

/** The wire form of a tool, with its JSON Schema generated from the zod args. */
export function toolDescriptor(tool: ToolDefinition): Record<string, unknown> {
  // A hand-written schema is sent as written, $schema and $defs included (2025-11-25: JSON Schema 2020-12 is the default dialect).
  const inputSchema = tool.inputSchema ?? generatedSchema(tool.args);
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: { type: "object", ...inputSchema },
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

/** The outputSchema the named tool declares, for the classifier to check its structuredContent against. */
export function outputSchemaOf(tools: readonly ToolDefinition[], name: string): Record<string, unknown> | undefined {
  return tools.find((t) => t.name === name)?.outputSchema;
}

export function inputSchemaOf(tools: readonly ToolDefinition[], name: string): Record<string, unknown> | undefined {
  const tool = tools.find((t) => t.name === name);
  return tool ? (toolDescriptor(tool).inputSchema as Record<string, unknown>) : undefined;
}

async function callTool(params: Record<string, unknown>, ctx: DispatchContext): Promise<ToolResult | Record<string, unknown>> {
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
  // 2026-07-28 only: the tasks extension is not defined for 2025-11-25 (SEP-2663 Backward Compatibility).
  if (ctx.era === "modern" && isTaskTool(tool)) return taskCall(tool, args.data as Record<string, unknown>, ctx);
  return tool.run(args.data as Record<string, unknown>, ctx);
}

/** A tools/list result for these tools; 2026-07-28 adds the required ttlMs and cacheScope. */
export function toolsListResult(tools: readonly ToolDefinition[], era: "modern" | "legacy", nextCursor?: string): Record<string, unknown> {
  return {
    tools: tools.map(toolDescriptor),
    ...(nextCursor === undefined ? {} : { nextCursor }),
    ...(era === "modern" ? { ttlMs: 0, cacheScope: "public" } : {}),
  };
}

const COMMON: Record<string, Handler> = {
  "tools/list": async (_params, ctx) => toolsListResult(ctx.tools, ctx.era),
  "tools/call": async (params, ctx) => ({ ...(await callTool(params, ctx)) }),
  "resources/list": async () => ({ resources: [] }),
  "resources/templates/list": async () => ({ resourceTemplates: [] }),
  "prompts/list": async () => ({ prompts: [] }),
  "resources/read": async (params, ctx) => {
    throw resourceNotFound(ctx.era, params.uri);
  },
  "prompts/get": async (params) => {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown prompt '${String(params.name)}'`);
  },
  // Nothing here has completable arguments, so every completion is empty.
  "completion/complete": async () => ({ completion: { values: [], hasMore: false } }),
};

const LEGACY_ONLY: Record<string, Handler> = {
  initialize: async (_params, ctx) => {
    ctx.openMcpSession();
    return { protocolVersion: ctx.protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: SERVER_INSTRUCTIONS };
  },
  ping: async () => ({}),
  "logging/setLevel": async (params, ctx) => {
    if (!(LOG_LEVELS as readonly unknown[]).includes(params.level)) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
    }
    ctx.setLogLevel(params.level as LogLevel);
    return {};
  },
  // Accepted; resources here never change, so no notifications/resources/updated follows (2026-07-28 removes both).
  "resources/subscribe": async () => ({}),
  "resources/unsubscribe": async () => ({}),
};

const MODERN_ONLY: Record<string, Handler> = {
  "server/discover": async () => ({
    supportedVersions: [...SUPPORTED_VERSIONS],
    capabilities: { ...SERVER_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } },
    instructions: SERVER_INSTRUCTIONS,
    ttlMs: 0,
    cacheScope: "public",
    _meta: { [META.serverInfo]: SERVER_INFO },
  }),
  ...TASK_HANDLERS,
};

/** Finds the handler for a method in an era; scenario handlers come first. */
export function resolveHandler(
  era: "modern" | "legacy",
  method: string,
  extra: Record<string, Handler> = {},
): Handler | undefined {
  return extra[method] ?? COMMON[method] ?? (era === "modern" ? MODERN_ONLY[method] : LEGACY_ONLY[method]);
}
