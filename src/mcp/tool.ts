import type { z } from "zod";
import type { Era } from "./versions.ts";

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
  /** Increments and returns a per-session counter (order numbers, runs). */
  tally(key: string): number;
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
  annotations: ToolAnnotations;
  /** True when the tool may ask for input, so legacy calls must answer on an SSE stream. */
  asksForInput?: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}
