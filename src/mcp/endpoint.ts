import type { Decision } from "../faults/schema.ts";
import { perform, withResultType } from "../faults/perform.ts";
import type { RequestFacts, Scenario } from "../scenario.ts";
import { BASE_TOOLS } from "./base-tools.ts";
import { InputRequired, inputSchemaOf, resolveHandler, SERVER_CAPABILITIES, type DispatchContext } from "./dispatch.ts";
import { ErrorCode, errorMessage, readMessage, resultMessage, RpcError, type RequestId } from "./jsonrpc.ts";
import { validateModern } from "./modern-headers.ts";
import { paramsDigest, signState, verifyState } from "./request-state.ts";
import { SSE_HEADERS, sseEvent } from "./sse.ts";
import type { ElicitParams, ElicitResult, ToolDefinition } from "./tool.ts";
import { isLegacyVersion, LEGACY_VERSIONS, META, MODERN_VERSION, SERVER_INFO, type Era } from "./versions.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const STATE_TTL_MS = 10 * 60_000;
const ELICIT_TIMEOUT_MS = 5 * 60_000;

export interface McpSessionRow {
  id: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  ended: boolean;
}

/** What the endpoint needs from the session's Durable Object. */
export interface SessionRuntime {
  scenario: Scenario;
  params: Record<string, unknown>;
  /** Atomically counts this POST and returns the counts that include it. */
  count(facts: { method?: string; tool?: string; mcpSessionId?: string }): { posts: number; method: number; tool: number; mcpSession: number };
  tally(key: string): number;
  createMcpSession(id: string, protocolVersion: string, clientCapabilities: Record<string, unknown>, clientInfo: unknown): void;
  getMcpSession(id: string): McpSessionRow | undefined;
  endMcpSession(id: string): boolean;
  stateKey(): Promise<CryptoKey>;
  waitForClient(id: string, timeoutMs: number): Promise<unknown>;
  deliverToServer(id: RequestId, message: unknown): boolean;
  keepForResume(eventId: string, message: Record<string, unknown>): void;
  takeResumed(eventId: string): Record<string, unknown> | undefined;
  waitUntil(promise: Promise<unknown>): void;
  now(): number;
}

/** What happened, for the journal: the facts the scenario saw and the fault it chose. */
export interface Handled {
  response: Response;
  facts?: RequestFacts;
  decision?: Decision;
  requestBody?: string;
}

function lowerHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key.toLowerCase()] = value));
  return out;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function rpcErrorResponse(id: RequestId | undefined, error: RpcError): Response {
  return json(error.httpStatus, errorMessage(id, error.code, error.message, error.data));
}

function methodNotAllowed(): Response {
  return json(405, errorMessage(undefined, ErrorCode.InvalidRequest, "Method not allowed: this endpoint takes POST"), {
    allow: "POST, DELETE",
  });
}

function toolsFor(runtime: SessionRuntime): ToolDefinition[] {
  const extra = runtime.scenario.tools?.(runtime.params) ?? [];
  const names = new Set(extra.map((t) => t.name));
  return [...BASE_TOOLS.filter((t) => !names.has(t.name)), ...extra];
}

/** Serves one HTTP request on a session's MCP endpoint, in either era. */
export async function handleMcp(request: Request, runtime: SessionRuntime): Promise<Handled> {
  const headers = lowerHeaders(request.headers);
  if (request.method === "GET") return { response: resume(headers, runtime) };
  if (request.method === "DELETE") {
    const id = headers["mcp-session-id"];
    if (!id) return { response: methodNotAllowed() };
    return { response: runtime.endMcpSession(id) ? new Response(null, { status: 204 }) : json(404, errorMessage(undefined, ErrorCode.InvalidRequest, "Session not found")) };
  }
  if (request.method !== "POST") return { response: methodNotAllowed() };

  const declared = Number(headers["content-length"] ?? "0");
  if (declared > MAX_BODY_BYTES) return { response: json(413, errorMessage(undefined, ErrorCode.InvalidRequest, `Request body exceeds ${MAX_BODY_BYTES} bytes`)) };
  const requestBody = await request.text();
  if (requestBody.length > MAX_BODY_BYTES) return { response: json(413, errorMessage(undefined, ErrorCode.InvalidRequest, `Request body exceeds ${MAX_BODY_BYTES} bytes`)), requestBody: requestBody.slice(0, 4096) };

  let body: unknown;
  try {
    body = JSON.parse(requestBody);
  } catch {
    return { response: json(400, errorMessage(undefined, ErrorCode.ParseError, "Parse error: the body is not valid JSON")), requestBody };
  }
  if (Array.isArray(body)) {
    return { response: json(400, errorMessage(undefined, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported by MCP")), requestBody };
  }
  const incoming = readMessage(body);
  if (!incoming) {
    const id = (body as { id?: unknown } | null)?.id;
    const readableId = typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : undefined;
    return { response: json(400, errorMessage(readableId, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response")), requestBody };
  }

  if (incoming.kind === "response") {
    // Legacy eras: the client's answer to a server-to-client request.
    const id = incoming.message.id;
    const delivered = id !== undefined && runtime.deliverToServer(id, incoming.message);
    const facts = baseFacts("legacy", headers["mcp-protocol-version"] ?? LEGACY_VERSIONS[0], headers, "response");
    return delivered
      ? { response: new Response(null, { status: 202 }), facts, requestBody }
      : { response: json(400, errorMessage(undefined, ErrorCode.InvalidRequest, "No pending server request has this id")), facts, requestBody };
  }

  const message = incoming.message;
  const params = message.params ?? {};
  const era = detectEra(message.method, params, headers);
  const tools = toolsFor(runtime);
  const requestId = incoming.kind === "request" ? incoming.message.id : undefined;

  let protocolVersion: string;
  let clientCapabilities: Record<string, unknown> = {};
  let mcpSessionId: string | undefined;
  let extraHeaders: Record<string, string> = {};

  if (era === "modern") {
    try {
      const ctx = validateModern(headers, message.method, params, (name) => inputSchemaOf(tools, name));
      protocolVersion = ctx.protocolVersion;
      clientCapabilities = ctx.clientCapabilities;
    } catch (error) {
      if (error instanceof RpcError) return { response: rpcErrorResponse(requestId, error), requestBody, facts: baseFacts("modern", MODERN_VERSION, headers, incoming.kind, message.method) };
      throw error;
    }
  } else if (message.method === "initialize") {
    const requested = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
    protocolVersion = isLegacyVersion(requested) ? requested : LEGACY_VERSIONS[0];
    clientCapabilities = (params.capabilities ?? {}) as Record<string, unknown>;
    // The id is stored only when the initialize result is really produced, not when a fault replaces it.
    mcpSessionId = newSessionId();
    extraHeaders = { "mcp-session-id": mcpSessionId };
  } else {
    mcpSessionId = headers["mcp-session-id"];
    const facts = baseFacts("legacy", headers["mcp-protocol-version"] ?? LEGACY_VERSIONS[0], headers, incoming.kind, message.method);
    if (!mcpSessionId) {
      return { response: json(400, errorMessage(requestId, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)")), facts, requestBody };
    }
    const session = runtime.getMcpSession(mcpSessionId);
    if (!session || session.ended) {
      return { response: json(404, errorMessage(requestId, ErrorCode.InvalidRequest, "Session not found: unknown or terminated Mcp-Session-Id")), facts, requestBody };
    }
    const headerVersion = headers["mcp-protocol-version"];
    if (headerVersion !== undefined && !isLegacyVersion(headerVersion)) {
      return { response: json(400, errorMessage(requestId, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version '${headerVersion}'`)), facts, requestBody };
    }
    protocolVersion = session.protocolVersion;
    clientCapabilities = session.clientCapabilities;
  }

  const toolName = message.method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
  const facts: RequestFacts = {
    ...baseFacts(era, protocolVersion, headers, incoming.kind, message.method),
    ...(toolName ? { toolName } : {}),
    ...(toolName && params.arguments && typeof params.arguments === "object" ? { arguments: params.arguments as Record<string, unknown> } : {}),
    ...(mcpSessionId ? { mcpSessionId } : {}),
  };
  const counts = runtime.count({ method: message.method, ...(toolName ? { tool: toolName } : {}), ...(mcpSessionId ? { mcpSessionId } : {}) });
  const decision = runtime.scenario.decide?.({
    params: runtime.params,
    request: facts,
    counters: { ...counts, tally: (key) => runtime.tally(`scenario:${key}`) },
    now: runtime.now(),
  });

  // An expired session stays expired: later requests with its id get 404 until the client initializes again.
  if (decision?.fault.kind === "session_expired" && mcpSessionId) runtime.endMcpSession(mcpSessionId);

  if (incoming.kind === "notification") {
    const fault = decision?.fault;
    const transportFault = fault && ["http_status", "rate_limited", "unauthorized", "insufficient_scope", "session_expired", "delay"].includes(fault.kind);
    if (transportFault) {
      const response = await perform(fault, performBase(era, 0, runtime, request, extraHeaders, async () => ({})));
      return { response, facts, decision, requestBody };
    }
    return { response: new Response(null, { status: 202 }), facts, requestBody };
  }

  const id = requestId as RequestId;
  const handler =
    message.method === "initialize"
      ? initializeHandler(protocolVersion, () => runtime.createMcpSession(mcpSessionId as string, protocolVersion, clientCapabilities, params.clientInfo))
      : resolveHandler(era, message.method, runtime.scenario.handlers?.(runtime.params));
  if (!handler) {
    // 2026-07-28: an unknown method gets 404 with -32601; earlier revisions name no status, so 200 there.
    const status = era === "modern" ? 404 : 200;
    const response = decision ? await perform(decision.fault, performBase(era, id, runtime, request, extraHeaders, async () => errorMessage(id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`)))
      : json(status, errorMessage(id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`), extraHeaders);
    return { response, facts, decision, requestBody };
  }

  const tool = toolName ? tools.find((t) => t.name === toolName) : undefined;
  if (era === "modern" && tool?.asksForInput && !clientCapabilities.elicitation) {
    const error = new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${toolName} asks for input through elicitation`, {
      httpStatus: 400,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    return { response: rpcErrorResponse(id, error), facts, decision, requestBody };
  }

  const stateKey = era === "modern" ? await runtime.stateKey() : undefined;
  const produce = async (emit: ((m: Record<string, unknown>) => void) | undefined) => {
    const ctx: DispatchContext = {
      era,
      protocolVersion,
      headers,
      scenarioId: runtime.scenario.id,
      clientCapabilities,
      tools,
      tally: (key) => runtime.tally(`tool:${key}`),
      notify: (method, notificationParams) => emit?.({ jsonrpc: "2.0", method, params: notificationParams }),
      elicit: era === "modern" ? modernElicit(params) : legacyElicit(emit, runtime),
    };
    try {
      if (era === "modern" && stateKey && typeof params.requestState === "string") {
        const check = await verifyState(stateKey, params.requestState, { method: message.method, digest: await paramsDigest(params), now: runtime.now() });
        if (!check.ok) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${check.reason}`);
      }
      return resultMessage(id, withResultType(era, withServerInfo(era, await handler(params, ctx))));
    } catch (error) {
      if (error instanceof InputRequired && stateKey) {
        const state = await signState(stateKey, {
          m: message.method,
          d: await paramsDigest(params),
          exp: runtime.now() + STATE_TTL_MS,
          k: Object.keys(error.requests),
        });
        return resultMessage(id, { resultType: "input_required", inputRequests: error.requests, requestState: state });
      }
      if (error instanceof RpcError) return errorMessage(id, error.code, error.message, error.data);
      return errorMessage(id, ErrorCode.InternalError, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const base = performBase(era, id, runtime, request, extraHeaders, produce);
  base.stream = runtime.params.responseMode === "sse" || (era === "legacy" && Boolean(tool?.asksForInput));
  const response = await perform(decision?.fault, base);
  return { response, facts, decision, requestBody };
}

function performBase(
  era: Era,
  id: RequestId,
  runtime: SessionRuntime,
  request: Request,
  headers: Record<string, string>,
  produce: (emit: ((m: Record<string, unknown>) => void) | undefined) => Promise<Record<string, unknown>>,
) {
  return {
    era,
    requestId: id,
    stream: false,
    produce,
    headers,
    origin: new URL(request.url).origin,
    keepForResume: (eventId: string, message: Record<string, unknown>) => runtime.keepForResume(eventId, message),
    waitUntil: (promise: Promise<unknown>) => runtime.waitUntil(promise),
  };
}

function baseFacts(era: Era, protocolVersion: string, headers: Record<string, string>, kind: RequestFacts["kind"], method?: string): RequestFacts {
  return { era, protocolVersion, httpMethod: "POST", kind, headers, ...(method ? { method } : {}) };
}

/**
 * A request with 2026-07-28 `_meta` (or modern headers) is served statelessly; `initialize` and a session id
 * select the legacy semantics (2026-07-28 streamable-http "Backward Compatibility").
 */
export function detectEra(method: string, params: Record<string, unknown>, headers: Record<string, string>): Era {
  if (method === "initialize") return "legacy";
  const meta = params._meta as Record<string, unknown> | undefined;
  if (meta && META.protocolVersion in meta) return "modern";
  if (headers["mcp-method"] !== undefined) return "modern";
  const version = headers["mcp-protocol-version"];
  if (version !== undefined) return isLegacyVersion(version) ? "legacy" : "modern";
  if (headers["mcp-session-id"] !== undefined) return "legacy";
  return "modern";
}

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function initializeHandler(protocolVersion: string, store: () => void) {
  return async () => (store(), {
    protocolVersion,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: "Faultline: an MCP server that injects faults chosen by the session's scenario.",
  });
}

function withServerInfo(era: Era, result: Record<string, unknown>): Record<string, unknown> {
  if (era !== "modern") return result;
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  return { ...result, _meta: { ...meta, [META.serverInfo]: SERVER_INFO } };
}

function elicitRequest(params: ElicitParams) {
  const { elicitationId: _id, ...rest } = params;
  return { method: "elicitation/create", params: { mode: params.mode ?? "form", ...rest } };
}

/** Stateless era: answers come back in inputResponses on the retry. */
function modernElicit(requestParams: Record<string, unknown>) {
  return async (key: string, params: ElicitParams): Promise<ElicitResult> => {
    const responses = requestParams.inputResponses as Record<string, unknown> | undefined;
    const answer = responses?.[key] as ElicitResult | undefined;
    if (typeof requestParams.requestState === "string" && answer && typeof answer.action === "string") return answer;
    throw new InputRequired({ [key]: elicitRequest(params) });
  };
}

/** Legacy eras: a real elicitation/create on the POST's SSE stream, answered by a later POST. */
function legacyElicit(emit: ((m: Record<string, unknown>) => void) | undefined, runtime: SessionRuntime) {
  return async (_key: string, params: ElicitParams): Promise<ElicitResult> => {
    if (!emit) return { action: "cancel" };
    const id = `elicit-${crypto.randomUUID()}`;
    const answer = runtime.waitForClient(id, ELICIT_TIMEOUT_MS);
    const { elicitationId, ...rest } = params;
    emit({ jsonrpc: "2.0", id, method: "elicitation/create", params: { ...rest, ...(params.mode === "url" ? { elicitationId: elicitationId ?? id } : {}) } });
    const response = (await answer) as { result?: ElicitResult; error?: unknown } | undefined;
    return response?.result && typeof response.result.action === "string" ? response.result : { action: "cancel" };
  };
}

/** GET: 405, except a legacy Last-Event-ID resumption of a stream that was cut on purpose. */
function resume(headers: Record<string, string>, runtime: SessionRuntime): Response {
  const lastEventId = headers["last-event-id"];
  const message = lastEventId ? runtime.takeResumed(lastEventId) : undefined;
  if (!message) return methodNotAllowed();
  return new Response(sseEvent(message, { id: `${lastEventId}-resumed` }), { status: 200, headers: SSE_HEADERS });
}
