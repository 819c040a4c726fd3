import type { Answer } from "../faults/perform.ts";
import type { Effects } from "./facts.ts";
import { InputRequired, resolveHandler, type DispatchContext } from "./dispatch.ts";
import type { MessageFacts } from "./facts.ts";
import { checkInputResponses, elicitRequest, legacyAsk, legacyElicit, ModernInputs, usableResponses, type CarriedClaims, type InputRequest } from "./inputs.ts";
import { ErrorCode, errorMessage, resultMessage, RpcError, type RequestId } from "../wire/jsonrpc.ts";
import { logThreshold, progressTokenOf } from "./notifications.ts";
import { paramsDigest, signState, verifyState } from "./request-state.ts";
import { shapeResult } from "../wire/result-shape.ts";
import type { ActiveScenario, SessionRuntime } from "./runtime.ts";
import { LOG_LEVELS, type ElicitResult, type RootsResult, type SampleResult, type ToolDefinition } from "./tool.ts";

const STATE_TTL_MS = 10 * 60_000;

/**
 * Stage 3, the handler's side: the answer to a request that passed validation, worked out only when the fault
 * (or its absence) asks for it. `status` is the HTTP status the answer travels with once it is known; `effects`
 * whether the handler ran: "none" until it starts, "possible" while it runs, "ran" once it returned or threw.
 */
export function handlerAnswer(
  message: MessageFacts,
  tools: readonly ToolDefinition[],
  session: SessionRuntime,
  active: ActiveScenario,
): { answer: Answer; status: () => number; effects: () => Effects } {
  const { era } = message.request;
  const method = message.incoming.message.method;
  const params = message.params;
  const id = message.requestId as RequestId;
  const tool = message.request.toolName ? tools.find((t) => t.name === message.request.toolName) : undefined;
  let status = 200;
  let effects: Effects = "none";

  const answer: Answer = async (emit) => {
    const handler = resolveHandler(era, method, active.scenario.handlers?.(active.params));
    if (!handler) {
      // 2026-07-28: an unknown method gets 404 with -32601; earlier revisions name no status, so 200 there.
      status = era === "modern" ? 404 : 200;
      return errorMessage(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const stateKey = era === "modern" ? await session.stateKey() : undefined;
    const asked: { inputs?: ModernInputs } = {};
    try {
      let claims: CarriedClaims | undefined;
      if (stateKey && typeof params.requestState === "string") {
        const check = await verifyState(stateKey, params.requestState, { method, digest: await paramsDigest(params), now: session.now() });
        if (!check.ok) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${check.reason}`);
        claims = check.claims;
      }
      if (era === "modern") {
        checkInputResponses(params);
        asked.inputs = new ModernInputs(usableResponses(params, claims, Boolean(tool?.acceptsUnsignedInput)), claims, message.clientCapabilities);
      }
      effects = "possible";
      const result = await handler(params, dispatchContext(message, tools, session, active, emit, asked)).finally(() => (effects = "ran"));
      return resultMessage(id, shapeResult(era, method, result));
    } catch (error) {
      if (error instanceof InputRequired && stateKey) {
        const answered = asked.inputs && Object.keys(asked.inputs.answered).length > 0 ? { a: asked.inputs.answered } : {};
        const claims: CarriedClaims = { m: method, d: await paramsDigest(params), exp: session.now() + STATE_TTL_MS, k: Object.keys(error.requests), ...answered };
        return resultMessage(id, { resultType: "input_required", inputRequests: error.requests, requestState: await signState(stateKey, claims) });
      }
      if (error instanceof RpcError) {
        status = error.httpStatus;
        return errorMessage(id, error.code, error.message, error.data);
      }
      return errorMessage(id, ErrorCode.InternalError, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return { answer, status: () => status, effects: () => effects };
}

/**
 * What a handler or tool may do while it answers. Input requests go on the response stream (legacy eras) or into
 * an input_required result (2026-07-28, through `asked.inputs`, set once the retry's answers have been checked).
 */
function dispatchContext(
  message: MessageFacts,
  tools: readonly ToolDefinition[],
  session: SessionRuntime,
  active: ActiveScenario,
  emit: ((m: Record<string, unknown>) => void) | undefined,
  asked: { inputs?: ModernInputs },
): DispatchContext {
  const { era, protocolVersion, headers, mcpSessionId } = message.request;
  const { params, clientCapabilities } = message;
  const modernAsk = <T>(key: string, request: InputRequest) => (asked.inputs ? asked.inputs.ask<T>(key, request) : Promise.reject(new Error("input requested too early")));
  const ask = era === "modern" ? undefined : legacyAsk(emit, session, clientCapabilities);
  const threshold = logThreshold(era, params, mcpSessionId ? session.logLevel(mcpSessionId) : undefined);
  const progressToken = progressTokenOf(params);
  return {
    era,
    protocolVersion,
    headers,
    scenarioId: active.scenario.id,
    clientCapabilities,
    tools,
    count: (key) => session.count(`tool:${key}`),
    counted: (key) => session.counted(`tool:${key}`),
    notify: (method, notificationParams) => emit?.({ jsonrpc: "2.0", method, params: notificationParams }),
    elicit: ask ? legacyElicit(ask, clientCapabilities) : (key, elicitParams) => modernAsk<ElicitResult>(key, elicitRequest(elicitParams)),
    sample: (key, sampleParams) => {
      const request = { method: "sampling/createMessage", params: { ...sampleParams } };
      return ask ? ask<SampleResult>(request) : modernAsk<SampleResult>(key, request);
    },
    listRoots: (key) => {
      const request = { method: "roots/list", params: {} };
      return ask ? ask<RootsResult>(request) : modernAsk<RootsResult>(key, request);
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
    listChanged: (list) => session.publish({ list }),
    openMcpSession: () => {
      if (message.newMcpSessionId) session.createMcpSession(message.newMcpSessionId, protocolVersion, clientCapabilities, params.clientInfo);
    },
    setLogLevel: (level) => {
      if (mcpSessionId) session.setLogLevel(mcpSessionId, level);
    },
    ...(session.tasks ? { taskStore: session.tasks } : {}),
    now: () => session.now(),
  };
}
