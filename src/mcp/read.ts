import { parseJsonLimited, showBytes, SIZE_LIMITS } from "../base/json-limits.ts";
import { readCapped } from "../base/read-body.ts";
import { randomHex } from "../base/random-id.ts";
import type { RequestFacts } from "./scenario.ts";
import { isLegacyHeader, detectEra } from "./era.ts";
import { clientInfoOf, rpcOf, type Facts, type MessageFacts } from "./facts.ts";
import { ErrorCode, errorMessage, readMessage, RpcError, type IncomingMessage } from "../wire/jsonrpc.ts";
import { readModernMeta, validateModern } from "./modern-headers.ts";
import type { SessionRuntime } from "./runtime.ts";
import { inputSchemaOf, outputSchemaOf } from "./dispatch.ts";
import type { ToolDefinition } from "./tool.ts";
import { capabilityRefusal } from "./capability-refusal.ts";
import { isLegacyVersion, LEGACY_VERSIONS, META, MODERN_VERSION, type Era } from "../wire/versions.ts";
import { jsonResponse } from "../wire/response.ts";

/**
 * Stage 1 of the pipeline: reads a POST once into facts. A body that is not one JSON-RPC message is answered here
 * (`response`); a message that breaks a protocol rule keeps its error in `rejection`, answered after the transport
 * faults had their turn (see src/mcp/pipeline.ts).
 */
export type ReadOutcome =
  | { facts: Facts; response: Response }
  | { facts: Facts & { message: MessageFacts }; rejection?: RpcError; response?: undefined }
  | { facts: Facts; clientResponse: Extract<IncomingMessage, { kind: "response" }>; response?: undefined };

export function lowerHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key.toLowerCase()] = value));
  return out;
}

/** An error answer to a body that holds no message, so no id can be read from it (except an invalid request's). */
const unreadable = (status: number, code: number, message: string, id?: string | number) => jsonResponse(status, errorMessage(id, code, message));

export async function readPost(httpRequest: Request, headers: Record<string, string>, session: SessionRuntime, tools: readonly ToolDefinition[]): Promise<ReadOutcome> {
  const text = await readCapped(httpRequest, SIZE_LIMITS.mcp);
  if (text === undefined) {
    const message = `Request body exceeds ${SIZE_LIMITS.mcp} bytes (${showBytes(SIZE_LIMITS.mcp)}, the size limit for an MCP request)`;
    return { facts: { text: "", body: undefined, headers, rpc: { kind: "invalid" } }, response: unreadable(413, ErrorCode.InvalidRequest, message) };
  }
  // Nesting is checked over the text before anything parses or walks it (canonical forms, digests, redaction).
  const json = parseJsonLimited(text);
  if (!json.ok) {
    const response =
      json.reason === "too_deep"
        ? unreadable(400, ErrorCode.InvalidRequest, `Invalid Request: ${json.message}`)
        : unreadable(400, ErrorCode.ParseError, "Parse error: the body is not valid JSON");
    return { facts: { text, body: undefined, headers, rpc: { kind: "invalid" } }, response };
  }
  const body = json.value;
  const clientInfo = clientInfoOf(body);
  const facts: Facts = { text, body, headers, rpc: rpcOf(body), ...(clientInfo ? { clientInfo } : {}) };
  if (Array.isArray(body)) {
    return { facts, response: unreadable(400, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported by MCP") };
  }
  const incoming = readMessage(body);
  if (!incoming) {
    const id = (body as { id?: unknown } | null)?.id;
    const readableId = typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : undefined;
    return { facts, response: unreadable(400, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response", readableId) };
  }
  // Legacy eras: the client's answer to a server-to-client request.
  if (incoming.kind === "response") {
    return { facts: { ...facts, era: "legacy", protocolVersion: headers["mcp-protocol-version"] ?? LEGACY_VERSIONS[0] }, clientResponse: incoming };
  }
  const params = incoming.message.params ?? {};
  const era = detectEra(incoming.message.method, params, headers);
  const { message, rejection } =
    era === "modern"
      ? readModern(common(incoming, facts, params, era), headers, tools)
      : incoming.message.method === "initialize"
        ? readInitialize(common(incoming, facts, params, era))
        : readLegacy(common(incoming, facts, params, era), headers, session, tools);
  // The classifier checks a tools/call's structuredContent against the outputSchema this server declared for the tool.
  const outputSchema = incoming.message.method === "tools/call" && facts.rpc.toolName ? outputSchemaOf(tools, facts.rpc.toolName) : undefined;
  return { facts: { ...facts, era, protocolVersion: message.request.protocolVersion, message, ...(outputSchema ? { outputSchema } : {}) }, ...(rejection ? { rejection } : {}) };
}

type Read = { message: MessageFacts; rejection?: RpcError };
type Common = ReturnType<typeof common>;

/**
 * What every era's facts share: the JSON-RPC side, and the tool name and arguments of a tools/call. The method and
 * tool name are the ones the journal summary already took from the body (rpcOf), not worked out again.
 */
function common(incoming: MessageFacts["incoming"], facts: Facts, params: Record<string, unknown>, era: Era) {
  const toolName = facts.rpc.toolName;
  const args = toolName && params.arguments && typeof params.arguments === "object" ? { arguments: params.arguments as Record<string, unknown> } : {};
  const request = { era, httpMethod: "POST", kind: incoming.kind, headers: facts.headers, method: incoming.message.method, ...(toolName ? { toolName } : {}), ...args };
  return { incoming, params, requestId: incoming.kind === "request" ? incoming.message.id : undefined, request };
}

/** 2026-07-28: the version and capabilities come from _meta; the headers must agree with the body. */
function readModern({ incoming, params, requestId, request }: Common, headers: Record<string, string>, tools: readonly ToolDefinition[]): Read {
  const meta = readModernMeta(params);
  const claimed = (params._meta as Record<string, unknown> | undefined)?.[META.protocolVersion];
  const clientCapabilities = meta.success ? meta.data[META.clientCapabilities] : {};
  let rejection: RpcError | undefined;
  try {
    validateModern(headers, incoming.message.method, params, meta, (name) => inputSchemaOf(tools, name));
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    rejection = error;
  }
  rejection ??= missingCapability(tools, request.toolName, clientCapabilities, "modern");
  const message = { incoming, params, requestId, clientCapabilities, request: { ...request, protocolVersion: typeof claimed === "string" ? claimed : MODERN_VERSION } };
  return { message, ...(rejection ? { rejection } : {}) };
}

/** Legacy initialize: negotiates the version and names the MCP session it will open if its result is produced. */
function readInitialize({ incoming, params, requestId, request }: Common): Read {
  const requested = typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
  const newMcpSessionId = randomHex(32);
  const protocolVersion = requested && isLegacyVersion(requested) ? requested : LEGACY_VERSIONS[0];
  const facts: RequestFacts = { ...request, protocolVersion, mcpSessionId: newMcpSessionId, ...(requested !== undefined ? { requestedVersion: requested } : {}) };
  const clientCapabilities = (params.capabilities ?? {}) as Record<string, unknown>;
  return { message: { incoming, params, requestId, request: facts, clientCapabilities, newMcpSessionId } };
}

/** Legacy requests after initialize: the MCP session named by Mcp-Session-Id, and the version header it allows. */
function readLegacy({ incoming, params, requestId, request }: Common, headers: Record<string, string>, session: SessionRuntime, tools: readonly ToolDefinition[]): Read {
  const mcpSessionId = headers["mcp-session-id"];
  const mcpSession = mcpSessionId ? session.getMcpSession(mcpSessionId) : undefined;
  const headerVersion = headers["mcp-protocol-version"];
  const protocolVersion = mcpSession?.protocolVersion ?? headerVersion ?? LEGACY_VERSIONS[0];
  const rejection = !mcpSessionId
    ? new RpcError(ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)", { httpStatus: 400 })
    : !mcpSession || mcpSession.ended
      ? new RpcError(ErrorCode.InvalidRequest, "Session not found: unknown or terminated Mcp-Session-Id", { httpStatus: 404 })
      : headerVersion !== undefined && !isLegacyHeader(headerVersion)
        ? new RpcError(ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version '${headerVersion}'`, { httpStatus: 400 })
        : missingCapability(tools, request.toolName, mcpSession.clientCapabilities, "legacy");
  const message: MessageFacts = {
    incoming,
    params,
    requestId,
    request: { ...request, protocolVersion, ...(mcpSessionId ? { mcpSessionId } : {}), ...(mcpSession?.ended ? { mcpSessionEnded: true as const } : {}) },
    clientCapabilities: mcpSession?.clientCapabilities ?? {},
    ...(mcpSession ? { mcpSession } : {}),
  };
  return { message, ...(rejection ? { rejection } : {}) };
}

/**
 * A tool that cannot run without a client capability the client did not declare (2026-07-28: in the request's _meta;
 * legacy: at initialize) is refused before it runs, naming the capability (src/mcp/capability-refusal.ts).
 */
function missingCapability(tools: readonly ToolDefinition[], toolName: string | undefined, clientCapabilities: Record<string, unknown>, era: Era): RpcError | undefined {
  const tool = toolName ? tools.find((t) => t.name === toolName) : undefined;
  const missing = (tool?.needs ?? (tool?.asksForInput ? ["elicitation"] : [])).filter((capability) => !clientCapabilities[capability]);
  if (missing.length === 0) return undefined;
  return capabilityRefusal(era, `${toolName} needs ${missing.join(", ")}`, Object.fromEntries(missing.map((capability) => [capability, {}])));
}
