import type { Decision } from "../faults/schema.ts";
import type { Effects, ProxiedEntry } from "../journal/entry.ts";
import type { RequestFacts } from "../scenario.ts";
import type { Deadline } from "./deadline.ts";
import { isRecord, type IncomingMessage, type RequestId } from "./jsonrpc.ts";
import type { McpSessionRow } from "./runtime.ts";
import { META, type Era } from "./versions.ts";

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
export interface Handled {
  response: Response;
  facts?: Facts;
  decision?: Decision;
  deadline?: Deadline;
  /** tools/call only: whether the tool ran, read when the exchange is journalled (after its body ended). */
  effects?: () => Effects;
  /** Proxy mode: the upstream's side, read when the exchange is journalled (src/proxy/journal.ts). */
  proxied?: () => Promise<{ entry: ProxiedEntry; body?: { text: string; bytes: number } }>;
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
  return isRecord(info) ? info : undefined;
}
