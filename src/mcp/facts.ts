import { z } from "zod";
import { boundedClientInfo } from "../base/stored-bounds.ts";
import type { Decision } from "../faults/schema.ts";
import type { RequestFacts } from "./scenario.ts";
import type { Deadline } from "../wire/deadline.ts";
import { isRecord, type IncomingMessage, type RequestId } from "../wire/jsonrpc.ts";
import type { McpSessionRow } from "./runtime.ts";
import { META, type Era } from "../wire/versions.ts";

/**
 * Whether a tools/call's tool ran, from what the server did: "none" when a transport fault or a rejection answered
 * before the handler, "ran" when the handler ran and returned, "possible" when it was cut mid-handler (or an
 * injected tool error stands for a tool that reported its own failure). Entries written before it lack it.
 */
export const EffectsSchema = z.enum(["none", "possible", "ran"]);
export type Effects = z.infer<typeof EffectsSchema>;

/** How the journal names the JSON-RPC side of an exchange. */
export interface RpcSummary {
  id?: string | number | null;
  method?: string;
  kind: "request" | "notification" | "response" | "invalid";
  toolName?: string;
}

/**
 * Everything read from one POST, once: the stages after the read, the recorder and the classifier use these and never
 * parse the body again. `message` is set when the body is a JSON-RPC message.
 */
export interface Facts {
  /** The body as received. */
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  body: unknown;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rpc: RpcSummary;
  clientInfo?: Record<string, unknown>;
  /** The era and protocol version the exchange is served in, once known (a message, or a client's response). */
  era?: Era;
  protocolVersion?: string;
  message?: MessageFacts;
  /** A tools/call of a tool that declares an outputSchema: that schema, which the classifier checks structuredContent against. */
  outputSchema?: Record<string, unknown>;
}

/** A readable JSON-RPC request or notification, with what the era and the session say about it. */
export interface MessageFacts {
  incoming: Extract<IncomingMessage, { kind: "request" | "notification" }>;
  params: Record<string, unknown>;
  /** Undefined for a notification. */
  requestId: RequestId | undefined;
  /** What the scenario sees. */
  request: RequestFacts;
  clientCapabilities: Record<string, unknown>;
  /** Legacy: the MCP session named by Mcp-Session-Id, when it exists. */
  mcpSession?: McpSessionRow;
  /** Legacy initialize: the id the new MCP session gets if the result is produced. */
  newMcpSessionId?: string;
}

/** What happened, for the journal: the facts read once, the fault chosen, and whether the deadline cut the response. */
export interface Handled<Trace = unknown> {
  response: Response;
  facts?: Facts;
  decision?: Decision;
  deadline?: Deadline;
  /** tools/call only: whether the tool ran, read when the exchange is journalled (after its body ended). */
  effects?: () => Effects;
  /** The answer source's own account of the exchange (an upstream's side: src/proxy/journal.ts), read when it is journalled. */
  proxied?: () => Promise<Trace>;
}

/** The journal's summary of a parsed body; a body that is not a valid message is still described as far as it goes. */
export function rpcOf(body: unknown): RpcSummary {
  if (!isRecord(body)) return { kind: "invalid" };
  const id = body.id as string | number | null | undefined;
  const method = typeof body.method === "string" ? body.method : undefined;
  const params = isRecord(body.params) ? body.params : {};
  const kind = method ? ("id" in body ? "request" : "notification") : "result" in body || "error" in body ? "response" : "invalid";
  return {
    ...(id !== undefined ? { id } : {}),
    ...(method ? { method } : {}),
    kind,
    ...(method === "tools/call" && typeof params.name === "string" ? { toolName: params.name } : {}),
  };
}

/** clientInfo from 2026-07-28 _meta or a legacy initialize. */
export function clientInfoOf(body: unknown): Record<string, unknown> | undefined {
  const params = isRecord(body) && isRecord(body.params) ? body.params : {};
  const meta = isRecord(params._meta) ? params._meta : {};
  const info = meta[META.clientInfo] ?? params.clientInfo;
  // Bounded here, once: the journal keeps it with every entry (src/base/stored-bounds.ts).
  return isRecord(info) ? boundedClientInfo(info) : undefined;
}
