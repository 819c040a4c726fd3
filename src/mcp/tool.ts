import type { z } from "zod";
import type { Era } from "../wire/versions.ts";

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string };

export interface ToolResult {
  content: ContentBlock[];
  isError?: boolean;
  structuredContent?: unknown;
}

/** What the client answered to an elicitation. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export interface ElicitParams {
  mode?: "form" | "url";
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
}

/** sampling/createMessage params, as sent to the client (legacy request or 2026-07-28 input request). */
export interface SampleParams {
  messages: { role: "user" | "assistant"; content: Record<string, unknown> | Record<string, unknown>[] }[];
  maxTokens: number;
  systemPrompt?: string;
  [key: string]: unknown;
}

/** What the client answered to sampling/createMessage. */
export interface SampleResult {
  role: "user" | "assistant";
  content: Record<string, unknown> | Record<string, unknown>[];
  model: string;
  stopReason?: string;
}

/** What the client answered to roots/list. */
export interface RootsResult {
  roots: { uri: string; name?: string }[];
}

/** RFC 5424 levels, lowest first (logging/setLevel, notifications/message). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ToolContext {
  era: Era;
  protocolVersion: string;
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  scenarioId: string;
  clientCapabilities: Record<string, unknown>;
  /**
   * Asks the client for input. Stateless era: resolved from `inputResponses` on the retry, otherwise the
   * call ends with an input_required result. Legacy eras: a real elicitation/create on the response stream.
   */
  elicit(key: string, params: ElicitParams): Promise<ElicitResult>;
  /**
   * Asks the client to sample an LLM, like elicit(): 2026-07-28 through inputRequests, legacy eras with a real
   * sampling/createMessage on the response stream. Several input calls awaited together (Promise.all) become
   * one input_required result listing every key.
   */
  sample(key: string, params: SampleParams): Promise<SampleResult>;
  /** Asks the client for its roots (roots/list), like elicit(). */
  listRoots(key: string): Promise<RootsResult>;
  /**
   * Sends notifications/message on the response stream. Legacy eras: at or above the level set with
   * logging/setLevel (all, when none was set). 2026-07-28: only when the request's
   * _meta["io.modelcontextprotocol/logLevel"] asks for it (logging.mdx: otherwise the server MUST NOT send any).
   */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Sends notifications/progress for the request's _meta.progressToken; nothing when the request has none. */
  progress(progress: number, total?: number, message?: string): void;
  /** Tells this session's open subscriptions/listen streams (2026-07-28) that the tool or prompt list changed. */
  listChanged(list: "tools" | "prompts"): void;
  /** Counts one more under a per-session key (order numbers, runs) and returns the new count. */
  count(key: string): number;
  /** The count under a per-session key, unchanged (0 when nothing was counted). */
  counted(key: string): number;
  /** Sends a notification (progress, log) on the response stream, when there is one. */
  notify(method: string, params: Record<string, unknown>): void;
}

/** A tool in the catalogue: its wire definition plus the code that runs it. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  args: z.ZodObject;
  /** Overrides the JSON Schema generated from `args` (e.g. to add x-mcp-header). */
  inputSchema?: Record<string, unknown>;
  /** The JSON Schema its structuredContent conforms to, sent as the tool's outputSchema (none when absent). */
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** True when the tool may ask for input, so legacy calls must answer on an SSE stream. */
  asksForInput?: boolean;
  /**
   * Client capabilities the tool cannot run without. 2026-07-28: a call whose _meta lacks one gets HTTP 400 with
   * -32021 before the tool runs. Default: elicitation when asksForInput is set, otherwise none.
   */
  needs?: readonly ("elicitation" | "sampling" | "roots")[];
  /** True when the tool sends notifications (progress, logs) before its result, so it answers on an SSE stream. */
  streams?: boolean;
  /**
   * 2026-07-28: accept inputResponses on a retry that carries no requestState. By default an answer counts only
   * next to the requestState this server signed, which binds it to the original params.
   */
  acceptsUnsignedInput?: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}
