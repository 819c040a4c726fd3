import type { Decision } from "../faults/schema.ts";
import { perform, withResultType } from "../faults/perform.ts";
import type { RequestFacts, Scenario } from "../scenario.ts";
import { BASE_TOOLS } from "./base-tools.ts";
import { InputRequired, inputSchemaOf, resolveHandler, SERVER_CAPABILITIES, type DispatchContext } from "./dispatch.ts";
import { ErrorCode, errorMessage, readMessage, resultMessage, RpcError, type RequestId } from "./jsonrpc.ts";
import { validateModern } from "./modern-headers.ts";
import { paramsDigest, signState, verifyState, type StateClaims } from "./request-state.ts";
import { SSE_HEADERS, sseEvent } from "./sse.ts";
import { LOG_LEVELS, type ElicitParams, type ElicitResult, type LogLevel, type RootsResult, type SampleResult, type ToolDefinition } from "./tool.ts";
import { isLegacyVersion, LEGACY_VERSIONS, META, MODERN_VERSION, SERVER_INFO, type Era } from "./versions.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const STATE_TTL_MS = 10 * 60_000;
/** Tags every notification on a subscriptions/listen stream, and its closing result (2026-07-28). */
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
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
      if (error instanceof RpcError) return { response: rpcErrorResponse(requestId, headerFirst(error, headers, params)), requestBody, facts: baseFacts("modern", MODERN_VERSION, headers, incoming.kind, message.method) };
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
    if (headerVersion !== undefined && !isLegacyHeader(headerVersion)) {
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
  if (era === "modern" && message.method === "subscriptions/listen") {
    if (!decision) return { response: listenResponse(id, params, channelOf(request), runtime), facts, requestBody };
    const base = performBase(era, id, runtime, request, extraHeaders, async () => resultMessage(id, { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: id } }));
    base.stream = true;
    return { response: await perform(decision.fault, base), facts, decision, requestBody };
  }
  if (era === "legacy" && message.method === "logging/setLevel") rememberLogLevel(mcpSessionId, params.level);
  const handler =
    era === "legacy" && message.method === "initialize"
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
  const missing = (tool?.needs ?? (tool?.asksForInput ? ["elicitation"] : [])).filter((capability) => !clientCapabilities[capability]);
  if (era === "modern" && missing.length > 0) {
    const error = new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${toolName} needs ${missing.join(", ")}`, {
      httpStatus: 400,
      data: { requiredCapabilities: Object.fromEntries(missing.map((capability) => [capability, {}])) },
    });
    return { response: rpcErrorResponse(id, error), facts, decision, requestBody };
  }

  const stateKey = era === "modern" ? await runtime.stateKey() : undefined;
  const produce = async (emit: ((m: Record<string, unknown>) => void) | undefined) => {
    let inputs: ModernInputs | undefined;
    const modernAsk = <T>(key: string, inputRequest: InputRequest) => (inputs ? inputs.ask<T>(key, inputRequest) : Promise.reject(new Error("input requested too early")));
    const ask = era === "modern" ? undefined : legacyAsk(emit, runtime, clientCapabilities);
    const threshold = logThreshold(era, params, mcpSessionId);
    const progressToken = progressTokenOf(params);
    const ctx: DispatchContext = {
      era,
      protocolVersion,
      headers,
      scenarioId: runtime.scenario.id,
      clientCapabilities,
      tools,
      tally: (key) => runtime.tally(`tool:${key}`),
      notify: (method, notificationParams) => emit?.({ jsonrpc: "2.0", method, params: notificationParams }),
      elicit: era === "modern" ? (key, elicitParams) => modernAsk<ElicitResult>(key, elicitRequest(elicitParams)) : legacyElicit(emit, runtime, clientCapabilities),
      sample: (key, sampleParams) => {
        const inputRequest = { method: "sampling/createMessage", params: { ...sampleParams } };
        return ask ? ask<SampleResult>(inputRequest) : modernAsk<SampleResult>(key, inputRequest);
      },
      listRoots: (key) => {
        const inputRequest = { method: "roots/list", params: {} };
        return ask ? ask<RootsResult>(inputRequest) : modernAsk<RootsResult>(key, inputRequest);
      },
      log: (level, data, logger) => {
        if (threshold === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) return;
        emit?.({ jsonrpc: "2.0", method: "notifications/message", params: { level, data, ...(logger ? { logger } : {}) } });
      },
      progress: (progress, total, progressMessage) => {
        if (progressToken === undefined) return;
        const note = { progressToken, progress, ...(total === undefined ? {} : { total }), ...(progressMessage ? { message: progressMessage } : {}) };
        emit?.({ jsonrpc: "2.0", method: "notifications/progress", params: note });
      },
      listChanged: (list) => publish(channelOf(request), { list }),
    };
    try {
      let claims: CarriedClaims | undefined;
      if (era === "modern" && stateKey && typeof params.requestState === "string") {
        const check = await verifyState(stateKey, params.requestState, { method: message.method, digest: await paramsDigest(params), now: runtime.now() });
        if (!check.ok) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${check.reason}`);
        claims = check.claims;
      }
      if (era === "modern") {
        checkInputResponses(params);
        inputs = new ModernInputs(usableResponses(params, claims, Boolean(tool?.acceptsUnsignedInput)), claims, clientCapabilities);
      }
      return resultMessage(id, withResultType(era, withServerInfo(era, withCacheHints(era, message.method, await handler(params, ctx)))));
    } catch (error) {
      if (error instanceof InputRequired && stateKey) {
        const carried = inputs && Object.keys(inputs.answered).length > 0 ? { a: inputs.answered } : {};
        const claims: CarriedClaims = { m: message.method, d: await paramsDigest(params), exp: runtime.now() + STATE_TTL_MS, k: Object.keys(error.requests), ...carried };
        const state = await signState(stateKey, claims);
        return resultMessage(id, { resultType: "input_required", inputRequests: error.requests, requestState: state });
      }
      if (error instanceof RpcError) return errorMessage(id, error.code, error.message, error.data);
      return errorMessage(id, ErrorCode.InternalError, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const base = performBase(era, id, runtime, request, extraHeaders, produce);
  base.stream = runtime.params.responseMode === "sse" || Boolean(tool?.streams) || (era === "legacy" && Boolean(tool?.asksForInput));
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
  const meta = params._meta as Record<string, unknown> | undefined;
  // An initialize stamped with 2026-07-28 _meta is a modern request for a removed method (404, -32601).
  if (meta && META.protocolVersion in meta) return "modern";
  if (method === "initialize") return "legacy";
  // A 2025 version header decides before Mcp-Method: legacy clients may send the 2026 headers too.
  const version = headers["mcp-protocol-version"];
  if (version !== undefined) return isLegacyHeader(version) ? "legacy" : "modern";
  if (headers["mcp-method"] !== undefined) return "modern";
  if (headers["mcp-session-id"] !== undefined) return "legacy";
  return "modern";
}

/**
 * 2026-07-28 streamable-http: MCP-Protocol-Version MUST equal the body's _meta protocolVersion, so a body version
 * that differs from the header is a HeaderMismatch (-32020) before it is an unsupported version (-32022).
 */
function headerFirst(error: RpcError, headers: Record<string, string>, params: Record<string, unknown>): RpcError {
  const header = headers["mcp-protocol-version"];
  const body = (params._meta as Record<string, unknown> | undefined)?.[META.protocolVersion];
  if (error.code !== ErrorCode.UnsupportedProtocolVersion || header === undefined || header === body) return error;
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: MCP-Protocol-Version header value '${header}' does not match body value '${String(body)}'`, { httpStatus: 400 });
}

/**
 * 2025-11-25 transports: a request without MCP-Protocol-Version is served as 2025-03-26, so an explicit 2025-03-26
 * header on a legacy session gets the same service rather than a 400.
 */
function isLegacyHeader(version: string): boolean {
  return isLegacyVersion(version) || version === "2025-03-26";
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

const CACHEABLE = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

/** 2026-07-28 (SEP-2549): these results MUST carry ttlMs and cacheScope; handlers that set none get "do not cache". */
function withCacheHints(era: Era, method: string, result: Record<string, unknown>): Record<string, unknown> {
  if (era !== "modern" || !CACHEABLE.has(method)) return result;
  return { ttlMs: 0, cacheScope: "public", ...result };
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

/** Legacy eras: a real elicitation/create on the POST's SSE stream, answered by a later POST. */
function legacyElicit(emit: ((m: Record<string, unknown>) => void) | undefined, runtime: SessionRuntime, clientCapabilities: Record<string, unknown>) {
  return async (_key: string, params: ElicitParams): Promise<ElicitResult> => {
    // 2025-11-25 lifecycle: both parties MUST only use negotiated capabilities; an empty elicitation capability means form mode only.
    if (!emit || !supportsElicitation(clientCapabilities, params.mode ?? "form")) return { action: "cancel" };
    const id = `elicit-${crypto.randomUUID()}`;
    const answer = runtime.waitForClient(id, ELICIT_TIMEOUT_MS);
    const { elicitationId, ...rest } = params;
    emit({ jsonrpc: "2.0", id, method: "elicitation/create", params: { ...rest, ...(params.mode === "url" ? { elicitationId: elicitationId ?? id } : {}) } });
    const response = (await answer) as { result?: ElicitResult; error?: unknown } | undefined;
    return response?.result && typeof response.result.action === "string" ? response.result : { action: "cancel" };
  };
}

function supportsElicitation(clientCapabilities: Record<string, unknown>, mode: "form" | "url"): boolean {
  const elicitation = clientCapabilities.elicitation;
  if (!elicitation || typeof elicitation !== "object") return false;
  const modes = Object.keys(elicitation);
  return mode === "url" ? modes.includes("url") : modes.length === 0 || modes.includes("form");
}

/** GET: 405, except a legacy Last-Event-ID resumption of a stream that was cut on purpose. */
function resume(headers: Record<string, string>, runtime: SessionRuntime): Response {
  const lastEventId = headers["last-event-id"];
  const message = lastEventId ? runtime.takeResumed(lastEventId) : undefined;
  if (!message) return methodNotAllowed();
  return new Response(sseEvent(message, { id: `${lastEventId}-resumed` }), { status: 200, headers: SSE_HEADERS });
}

// ---- input requests: elicitation, sampling and roots in both eras ----

type InputRequest = { method: string; params: Record<string, unknown> };

/** request-state.ts claims plus the answers of earlier rounds (`a`), so a later round need not ask again. */
type CarriedClaims = StateClaims & { a?: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const ANSWER_CHECKS: Record<string, (answer: Record<string, unknown>) => boolean> = {
  "elicitation/create": (a) => ["accept", "decline", "cancel"].includes(a.action as string),
  "sampling/createMessage": (a) => typeof a.role === "string" && (isObject(a.content) || Array.isArray(a.content)),
  "roots/list": (a) => Array.isArray(a.roots),
};

const CAPABILITY_OF: Record<string, "elicitation" | "sampling" | "roots"> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/** A malformed inputResponses is a protocol error (2026-07-28 mrtr.mdx, Server Requirements). */
function checkInputResponses(params: Record<string, unknown>): void {
  if (!("inputResponses" in params)) return;
  const responses = params.inputResponses;
  if (!isObject(responses) || !Object.values(responses).every(isObject)) {
    throw new RpcError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object whose values are result objects");
  }
}

/**
 * 2026-07-28 MRTR: an answer comes from the retry's inputResponses (only for keys the signed requestState asked
 * for, unless the tool accepts unsigned input) or from an earlier round carried in the state. A missing one ends
 * the call with input_required; input calls awaited together (Promise.all) share one InputRequired.
 */
class ModernInputs {
  readonly answered: Record<string, unknown>;
  private readonly fresh: Record<string, unknown>;
  private readonly clientCapabilities: Record<string, unknown>;
  private pending: InputRequired | undefined;

  constructor(fresh: Record<string, unknown>, claims: CarriedClaims | undefined, clientCapabilities: Record<string, unknown>) {
    this.fresh = fresh;
    this.answered = { ...(claims?.a ?? {}) };
    this.clientCapabilities = clientCapabilities;
  }

  ask<T>(key: string, request: InputRequest): Promise<T> {
    if (key in this.answered) return Promise.resolve(this.answered[key] as T);
    const answer = this.fresh[key];
    if (answer !== undefined) {
      if (!isObject(answer) || !ANSWER_CHECKS[request.method]?.(answer)) {
        return Promise.reject(new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} is not a ${request.method} result`));
      }
      this.answered[key] = answer;
      return Promise.resolve(answer as T);
    }
    // The server MUST NOT include input requests the client has not declared support for.
    const capability = CAPABILITY_OF[request.method];
    if (capability && !this.clientCapabilities[capability]) {
      return Promise.reject(
        new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${capability}`, {
          httpStatus: 400,
          data: { requiredCapabilities: { [capability]: {} } },
        }),
      );
    }
    this.pending ??= new InputRequired({});
    this.pending.requests[key] = request;
    return Promise.reject(this.pending);
  }
}

/** The inputResponses a retry may use: those the signed state asked for, or all of them for tools that accept unsigned input. */
function usableResponses(params: Record<string, unknown>, claims: CarriedClaims | undefined, acceptsUnsigned: boolean): Record<string, unknown> {
  const responses = isObject(params.inputResponses) ? params.inputResponses : {};
  if (claims) return Object.fromEntries(Object.entries(responses).filter(([key]) => claims.k.includes(key)));
  return acceptsUnsigned && params.requestState === undefined ? responses : {};
}

/** Legacy eras: a real server-to-client request on the POST's SSE stream, answered by a later POST. */
function legacyAsk(emit: ((m: Record<string, unknown>) => void) | undefined, runtime: SessionRuntime, clientCapabilities: Record<string, unknown>) {
  return async <T>(request: InputRequest): Promise<T> => {
    const capability = CAPABILITY_OF[request.method];
    // 2025-11-25 lifecycle: both parties MUST only use capabilities that were negotiated.
    if (capability && !clientCapabilities[capability]) {
      throw new RpcError(ErrorCode.InvalidRequest, `The client did not declare the ${capability} capability, so ${request.method} cannot be sent`);
    }
    if (!emit) throw new RpcError(ErrorCode.InternalError, `${request.method} needs an SSE response stream`);
    const id = `${capability ?? "request"}-${crypto.randomUUID()}`;
    const answer = runtime.waitForClient(id, ELICIT_TIMEOUT_MS);
    emit({ jsonrpc: "2.0", id, method: request.method, params: request.params });
    const response = (await answer) as { result?: unknown; error?: { code?: number; message?: string } } | undefined;
    if (isObject(response?.result)) return response.result as T;
    throw new RpcError(ErrorCode.InternalError, `The client did not answer ${request.method}${response?.error?.message ? `: ${response.error.message}` : ""}`);
  };
}

// ---- logging and progress ----

/** Legacy eras: the level set with logging/setLevel, per MCP session (in memory; a restart forgets it). */
const LEGACY_LOG_LEVELS = new Map<string, LogLevel>();

function logThreshold(era: Era, params: Record<string, unknown>, mcpSessionId: string | undefined): LogLevel | undefined {
  if (era === "modern") {
    // 2026-07-28 logging: without _meta logLevel the server MUST NOT send notifications/message.
    const level = (params._meta as Record<string, unknown> | undefined)?.[META.logLevel];
    return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
  }
  return (mcpSessionId && LEGACY_LOG_LEVELS.get(mcpSessionId)) || "debug";
}

function rememberLogLevel(mcpSessionId: string | undefined, level: unknown): void {
  if (!mcpSessionId || !(LOG_LEVELS as readonly unknown[]).includes(level)) return;
  if (LEGACY_LOG_LEVELS.size > 10_000) LEGACY_LOG_LEVELS.clear();
  LEGACY_LOG_LEVELS.set(mcpSessionId, level as LogLevel);
}

function progressTokenOf(params: Record<string, unknown>): string | number | undefined {
  const token = (params._meta as Record<string, unknown> | undefined)?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

// ---- subscriptions/listen (2026-07-28) ----

type ListChange = { list: "tools" | "prompts" };
type Subscriber = (change: ListChange) => void;

/**
 * Open listen streams per session. A session is one Durable Object, so every request of a session runs in the
 * same isolate; the channel is the MCP path (/s/{id}/mcp), which names the session.
 */
const SUBSCRIBERS = new Map<string, Set<Subscriber>>();
const LISTEN_KEEPALIVE_MS = 15_000;
const LISTEN_MAX_MS = 10 * 60_000;

function channelOf(request: Request): string {
  return new URL(request.url).pathname;
}

function publish(channel: string, change: ListChange): void {
  for (const subscriber of SUBSCRIBERS.get(channel) ?? []) subscriber(change);
}

/**
 * The part of a SubscriptionFilter this server honours: list changes of tools and prompts, and resource
 * subscriptions (accepted; no resource here ever changes, so no notifications/resources/updated follows).
 */
function honoredFilter(params: Record<string, unknown>): Record<string, unknown> {
  const wanted = isObject(params.notifications) ? params.notifications : {};
  const uris = Array.isArray(wanted.resourceSubscriptions) ? wanted.resourceSubscriptions.filter((u) => typeof u === "string") : [];
  return {
    ...(wanted.toolsListChanged === true ? { toolsListChanged: true } : {}),
    ...(wanted.promptsListChanged === true ? { promptsListChanged: true } : {}),
    ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
  };
}

function notificationFor(change: ListChange, filter: Record<string, unknown>): { method: string; params: Record<string, unknown> } | undefined {
  const key = `${change.list}ListChanged`;
  return filter[key] === true ? { method: `notifications/${change.list}/list_changed`, params: {} } : undefined;
}

/**
 * A subscriptions/listen stream: the acknowledgement first, then the notifications the filter asked for, each
 * tagged with the subscription id (the listen request's id); SSE comments keep it alive. After LISTEN_MAX_MS the
 * server ends it gracefully with a complete result (2026-07-28 subscriptions.mdx).
 */
function listenResponse(id: RequestId, params: Record<string, unknown>, channel: string, runtime: SessionRuntime): Response {
  const filter = honoredFilter(params);
  const tag = { [SUBSCRIPTION_ID]: id };
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const write = (chunk: string) => {
    if (!open) return;
    writer.write(encoder.encode(chunk)).catch(() => {
      open = false;
      finish();
    });
  };
  const subscriber: Subscriber = (change) => {
    const notification = notificationFor(change, filter);
    if (notification) write(sseEvent({ jsonrpc: "2.0", method: notification.method, params: { ...notification.params, _meta: tag } }));
  };
  write(sseEvent({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: filter, _meta: tag } }));
  const subscribers = SUBSCRIBERS.get(channel) ?? new Set<Subscriber>();
  SUBSCRIBERS.set(channel, subscribers);
  subscribers.add(subscriber);
  const keepAlive = setInterval(() => write(": keep-alive\n\n"), LISTEN_KEEPALIVE_MS);
  const lifetime = setTimeout(() => {
    write(sseEvent(resultMessage(id, { resultType: "complete", _meta: { ...tag, [META.serverInfo]: SERVER_INFO } })));
    finish();
  }, LISTEN_MAX_MS);
  runtime.waitUntil(
    ended.then(async () => {
      clearInterval(keepAlive);
      clearTimeout(lifetime);
      subscribers.delete(subscriber);
      if (subscribers.size === 0) SUBSCRIBERS.delete(channel);
      open = false;
      await writer.close().catch(() => undefined);
    }),
  );
  return new Response(readable, { status: 200, headers: SSE_HEADERS });
}
