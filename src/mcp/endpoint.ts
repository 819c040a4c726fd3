import { env } from "cloudflare:workers";
import { jsonResponse, perform, withResultType } from "../faults/perform.ts";
import { publicOrigin } from "../public-origin.ts";
import { readCapped } from "../read-body.ts";
import type { RequestFacts } from "../scenario.ts";
import { BASE_TOOLS } from "./base-tools.ts";
import { InputRequired, inputSchemaOf, resolveHandler, type DispatchContext } from "./dispatch.ts";
import { detectEra, isLegacyHeader } from "./era.ts";
import { checkInputResponses, elicitRequest, legacyAsk, legacyElicit, ModernInputs, usableResponses, type CarriedClaims, type InputRequest } from "./inputs.ts";
import { ErrorCode, errorMessage, readMessage, resultMessage, RpcError, type RequestId } from "./jsonrpc.ts";
import { channelOf, listenResponse, publish, SUBSCRIPTION_ID } from "./listen.ts";
import { validateModern } from "./modern-headers.ts";
import { logThreshold, progressTokenOf, rememberLogLevel } from "./notifications.ts";
import { paramsDigest, signState, verifyState } from "./request-state.ts";
import { initializeHandler, newSessionId, withCacheHints, withServerInfo } from "./results.ts";
import type { Handled, SessionRuntime } from "./runtime.ts";
import { SSE_HEADERS, sseEvent } from "./sse.ts";
import { LOG_LEVELS, type ElicitResult, type RootsResult, type SampleResult, type ToolDefinition } from "./tool.ts";
import { isLegacyVersion, LEGACY_VERSIONS, MODERN_VERSION, type Era } from "./versions.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const STATE_TTL_MS = 10 * 60_000;

function lowerHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key.toLowerCase()] = value));
  return out;
}

function rpcErrorResponse(id: RequestId | undefined, error: RpcError): Response {
  return jsonResponse(error.httpStatus, errorMessage(id, error.code, error.message, error.data));
}

function methodNotAllowed(): Response {
  return jsonResponse(405, errorMessage(undefined, ErrorCode.InvalidRequest, "Method not allowed: this endpoint takes POST"), {
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
    return { response: runtime.endMcpSession(id) ? new Response(null, { status: 204 }) : jsonResponse(404, errorMessage(undefined, ErrorCode.InvalidRequest, "Session not found")) };
  }
  if (request.method !== "POST") return { response: methodNotAllowed() };

  const requestBody = await readCapped(request, MAX_BODY_BYTES);
  if (requestBody === undefined) return { response: jsonResponse(413, errorMessage(undefined, ErrorCode.InvalidRequest, `Request body exceeds ${MAX_BODY_BYTES} bytes`)) };

  let body: unknown;
  try {
    body = JSON.parse(requestBody);
  } catch {
    return { response: jsonResponse(400, errorMessage(undefined, ErrorCode.ParseError, "Parse error: the body is not valid JSON")), requestBody };
  }
  if (Array.isArray(body)) {
    return { response: jsonResponse(400, errorMessage(undefined, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported by MCP")), requestBody };
  }
  const incoming = readMessage(body);
  if (!incoming) {
    const id = (body as { id?: unknown } | null)?.id;
    const readableId = typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : undefined;
    return { response: jsonResponse(400, errorMessage(readableId, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response")), requestBody };
  }

  if (incoming.kind === "response") {
    // Legacy eras: the client's answer to a server-to-client request.
    const id = incoming.message.id;
    const delivered = id !== undefined && runtime.deliverToServer(id, incoming.message);
    const facts = baseFacts("legacy", headers["mcp-protocol-version"] ?? LEGACY_VERSIONS[0], headers, "response");
    return delivered
      ? { response: new Response(null, { status: 202 }), facts, requestBody }
      : { response: jsonResponse(400, errorMessage(undefined, ErrorCode.InvalidRequest, "No pending server request has this id")), facts, requestBody };
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
      return { response: jsonResponse(400, errorMessage(requestId, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)")), facts, requestBody };
    }
    const session = runtime.getMcpSession(mcpSessionId);
    if (!session || session.ended) {
      return { response: jsonResponse(404, errorMessage(requestId, ErrorCode.InvalidRequest, "Session not found: unknown or terminated Mcp-Session-Id")), facts, requestBody };
    }
    const headerVersion = headers["mcp-protocol-version"];
    if (headerVersion !== undefined && !isLegacyHeader(headerVersion)) {
      return { response: jsonResponse(400, errorMessage(requestId, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version '${headerVersion}'`)), facts, requestBody };
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
    ...(message.method === "initialize" && typeof params.protocolVersion === "string" ? { requestedVersion: params.protocolVersion } : {}),
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
      : jsonResponse(status, errorMessage(id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`), extraHeaders);
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
  let status = 200;
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
      peek: (key) => runtime.peek(`tool:${key}`),
      notify: (method, notificationParams) => emit?.({ jsonrpc: "2.0", method, params: notificationParams }),
      elicit: ask ? legacyElicit(ask, clientCapabilities) : (key, elicitParams) => modernAsk<ElicitResult>(key, elicitRequest(elicitParams)),
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
      if (error instanceof RpcError) {
        status = error.httpStatus;
        return errorMessage(id, error.code, error.message, error.data);
      }
      return errorMessage(id, ErrorCode.InternalError, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const base = { ...performBase(era, id, runtime, request, extraHeaders, produce), status: () => status };
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
    origin: publicOrigin(request, env),
    keepForResume: (eventId: string, message: Record<string, unknown>) => runtime.keepForResume(eventId, message),
    waitUntil: (promise: Promise<unknown>) => runtime.waitUntil(promise),
  };
}

function baseFacts(era: Era, protocolVersion: string, headers: Record<string, string>, kind: RequestFacts["kind"], method?: string): RequestFacts {
  return { era, protocolVersion, httpMethod: "POST", kind, headers, ...(method ? { method } : {}) };
}


/** GET: 405, except a legacy Last-Event-ID resumption of a stream that was cut on purpose. */
function resume(headers: Record<string, string>, runtime: SessionRuntime): Response {
  const lastEventId = headers["last-event-id"];
  const message = lastEventId ? runtime.takeResumed(lastEventId) : undefined;
  if (!message) return methodNotAllowed();
  return new Response(sseEvent(message, { id: `${lastEventId}-resumed` }), { status: 200, headers: SSE_HEADERS });
}

