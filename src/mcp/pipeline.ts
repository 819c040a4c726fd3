/**
 * The MCP endpoint as a pipeline. One POST goes through three stages:
 *
 *   1. read   (src/mcp/read.ts)   body, JSON-RPC message, era, headers and legacy session, read once into Facts;
 *   2. decide (decideFault here)  the request is counted in one write and the scenario picks a fault, or none;
 *   3. answer (respond here)      the fault interpreter (src/faults/perform.ts) performs the decision, asking the
 *                                 handler (src/mcp/answer.ts) for the answer only when the fault needs one.
 *
 * The order of a fault against validation, which is what a client sees when both apply:
 *   - A body that is not one JSON-RPC message (too large, not JSON, a batch, not JSON-RPC) is answered in stage 1:
 *     no scenario sees it and it is not counted, since a scenario decides on a method.
 *   - A client's response to a server request (legacy eras) is delivered at once; it is not a request to fault.
 *   - A transport fault (TRANSPORT_FAULT_KINDS in src/faults/schema.ts: an HTTP status, 429, 401, 403, an expired
 *     session, a delay) wins over protocol validation, as a proxy or gateway in front of a server would answer
 *     before any MCP processing: a scenario's 503 is a 503 even for a request whose headers or capabilities are wrong.
 *   - Otherwise a protocol error found in stage 1 (2026-07-28 _meta and header checks, a missing client capability;
 *     legacy Mcp-Session-Id and MCP-Protocol-Version checks) is the answer, sent as JSON with its own status; a fault
 *     that shapes an answer (envelope, malformed, drip, ...) applies to that error as to any answer.
 *   - Then the handler's answer, shaped by the fault if there is one. An unknown method is the handler stage's answer.
 * Every response ends within FAULTLINE_MAX_RESPONSE_SECONDS (src/mcp/deadline.ts), enforced while it is written.
 */
import { z } from "zod";
import type { Decision } from "../faults/schema.ts";
import { isTransportFault } from "../faults/schema.ts";
import { perform, type PerformInput } from "../faults/perform.ts";
import { proxyMcp } from "../proxy/handle.ts";
import { handlerAnswer } from "./answer.ts";
import { BASE_TOOLS } from "./base-tools.ts";
import type { Effects } from "./facts.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { Facts, Handled, MessageFacts } from "./facts.ts";
import { ErrorCode, errorMessage, resultMessage, type RpcError } from "../wire/jsonrpc.ts";
import { listenResponse, SUBSCRIPTION_ID } from "./listen.ts";
import { lowerHeaders, readPost } from "./read.ts";
import type { ActiveScenario, SessionRuntime } from "./runtime.ts";
import type { ReplayAnswers } from "../recording/replay.ts";
import { SSE_HEADERS, sseEvent } from "../wire/sse.ts";
import type { ToolDefinition } from "./tool.ts";
import { jsonResponse } from "../wire/response.ts";

/**
 * Serves one HTTP request on a session's MCP endpoint, in either era. `origin` starts the URLs the answer names (the
 * public origin behind a reverse proxy); by default the origin the request came to.
 */
export async function handleMcp(request: Request, session: SessionRuntime, active: ActiveScenario, deadline: Deadline, origin = new URL(request.url).origin, replay?: ReplayAnswers): Promise<Handled> {
  if (active.upstream) {
    const proxy = { session, active, deadline, origin, decide: (message: MessageFacts) => decideFault(message, false, session, active) };
    return proxyMcp(request, active.upstream, { ...proxy, resume: (h) => resumed(h, session), keepForResume: (id, kept, facts) => session.keepForResume(id, resumable(kept, facts)) });
  }
  const headers = lowerHeaders(request.headers);
  if (request.method === "GET") return resume(headers, session);
  if (request.method === "DELETE") return { response: endMcpSession(headers, session) };
  if (request.method !== "POST") return { response: methodNotAllowed() };

  const tools = toolsFor(active);
  const read = await readPost(request, headers, session, tools);
  if (read.response) return { response: read.response, facts: read.facts, ...toolEffects(read.facts, () => "none") };
  // A replay has no server request waiting: the recorded stream goes on by itself, so the client's answer is taken.
  if ("clientResponse" in read) return { response: replay ? new Response(null, { status: 202 }) : deliverClientResponse(read.clientResponse.message, session), facts: read.facts };

  const { facts, rejection } = read;
  const decision = decideFault(facts.message, rejection !== undefined, session, active);
  const answered = await respond(facts, rejection, decision, { request, session, active, tools, deadline, origin, ...(replay ? { replay } : {}) });
  const { response, effects } = answered;
  const decided = decision ?? answered.decision;
  return { response, facts, ...(decided ? { decision: decided } : {}), deadline, ...toolEffects(facts, effects) };
}

/** Only a tools/call request runs a tool, so only its entry says whether it ran. */
function toolEffects(facts: Facts | undefined, effects: () => Effects): { effects?: () => Effects } {
  return facts?.rpc.kind === "request" && facts.rpc.method === "tools/call" ? { effects } : {};
}

const NO_EFFECTS = (): Effects => "none";

/**
 * Stage 2: counts the request (one write) and asks the scenario. A request that broke a protocol rule is still a POST
 * of its method, but not a call of its tool, which never runs.
 */
function decideFault(message: MessageFacts, rejected: boolean, session: SessionRuntime, active: ActiveScenario): Decision | undefined {
  const facts = message.request;
  // Only an existing MCP session is counted, so made-up ids cannot grow the counters.
  const mcpSessionId = message.mcpSession ? facts.mcpSessionId : undefined;
  const tool = rejected ? undefined : facts.toolName;
  const counts = session.countRequest({ method: facts.method, ...(tool ? { tool } : {}), ...(mcpSessionId ? { mcpSessionId } : {}) });
  const decision = active.scenario.decide?.({
    params: active.params,
    request: active.bearer ? { ...facts, bearer: active.bearer } : facts,
    counters: { ...counts, count: (key) => session.count(`scenario:${key}`) },
    now: session.now(),
  });
  // An expired session stays expired: later requests with its id get 404 until the client initializes again.
  if (decision?.fault.kind === "session_expired" && mcpSessionId) session.endMcpSession(mcpSessionId);
  return decision;
}

interface Context {
  request: Request;
  session: SessionRuntime;
  active: ActiveScenario;
  tools: readonly ToolDefinition[];
  deadline: Deadline;
  origin: string;
  /** A replay session's answer source (src/recording/replay.ts). */
  replay?: ReplayAnswers;
}

/**
 * Stage 3: performs the decision, producing the answer only when the fault needs it; `effects` tells whether the
 * handler ran. A transport fault, a rejection or an injected error answers before the handler: "none".
 */
async function respond(
  facts: Facts & { message: MessageFacts },
  rejection: RpcError | undefined,
  decision: Decision | undefined,
  context: Context,
): Promise<{ response: Response; effects: () => Effects; decision?: Decision }> {
  const { message } = facts;
  const { era, method } = message.request;
  const fault = decision?.fault;
  const input: PerformInput = {
    era,
    requestId: message.requestId,
    stream: false,
    answer: async () => undefined,
    origin: context.origin,
    mcpPath: new URL(context.request.url).pathname,
    keepForResume: (eventId, kept) => context.session.keepForResume(eventId, resumable(kept, facts)),
    waitUntil: (promise) => context.session.waitUntil(promise),
    deadline: context.deadline,
    ...(message.newMcpSessionId ? { headers: { "mcp-session-id": message.newMcpSessionId } } : {}),
  };
  // A notification gets 202 unless a transport fault answers for it; nothing else can shape an answer it has not got.
  const none = async (response: Promise<Response> | Response) => ({ response: await response, effects: NO_EFFECTS });
  if (message.incoming.kind === "notification") return none(perform(fault && isTransportFault(fault) ? fault : undefined, input));
  if (fault && isTransportFault(fault) && fault.kind !== "delay") return none(perform(fault, input));

  const id = message.requestId;
  if (rejection) {
    return none(perform(fault, { ...input, answer: async () => errorMessage(id, rejection.code, rejection.message, rejection.data), status: () => rejection.httpStatus }));
  }
  // A replay session: the recording answers where the handler would, under the same fault (src/recording/replay.ts).
  if (context.replay) return context.replay.respond(fault, input, message, context.session);
  if (era === "modern" && method === "subscriptions/listen" && id !== undefined) {
    if (!fault) return none(listenResponse(id, message.params, context.session, context.deadline));
    return none(perform(fault, { ...input, stream: true, answer: async () => resultMessage(id, { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: id } }) }));
  }
  const tool = message.request.toolName ? context.tools.find((t) => t.name === message.request.toolName) : undefined;
  const stream = context.active.params.responseMode === "sse" || Boolean(tool?.streams) || (era === "legacy" && Boolean(tool?.asksForInput));
  const handler = handlerAnswer(message, context.tools, context.session, context.active);
  const response = await perform(fault, { ...input, stream, answer: handler.answer, status: handler.status });
  // An injected tool error replaces the handler, but stands for a tool that ran and reported its own failure.
  return { response, effects: fault?.kind === "tool_error" ? () => "possible" : handler.effects };
}

/** The base tools plus the scenario's, which replace base tools of the same name. */
function toolsFor(active: ActiveScenario): ToolDefinition[] {
  const extra = active.scenario.tools?.(active.params) ?? [];
  const names = new Set(extra.map((t) => t.name));
  return [...BASE_TOOLS.filter((t) => !names.has(t.name)), ...extra];
}

function methodNotAllowed(): Response {
  return jsonResponse(405, errorMessage(undefined, ErrorCode.InvalidRequest, "Method not allowed: this endpoint takes POST"), { allow: "POST, DELETE" });
}

/** Legacy eras: the client's answer to a server-to-client request, handed to the request waiting for it. */
function deliverClientResponse(message: { id?: string | number }, session: SessionRuntime): Response {
  const delivered = message.id !== undefined && session.deliverToServer(message.id, message);
  return delivered ? new Response(null, { status: 202 }) : jsonResponse(400, errorMessage(undefined, ErrorCode.InvalidRequest, "No pending server request has this id"));
}

/** DELETE ends a legacy MCP session (2025-11-25 transports); without an Mcp-Session-Id it is not allowed. */
function endMcpSession(headers: Record<string, string>, session: SessionRuntime): Response {
  const id = headers["mcp-session-id"];
  if (!id) return methodNotAllowed();
  return session.endMcpSession(id) ? new Response(null, { status: 204 }) : jsonResponse(404, errorMessage(undefined, ErrorCode.InvalidRequest, "Session not found"));
}

/**
 * What a cut stream keeps for its resumption: the final message, and the call it answers, so the GET that delivers
 * it is journalled and judged as that call's (its method, tool, id, era and version), not as a bodiless GET.
 */
const ResumableSchema = z.object({
  message: z.record(z.string(), z.unknown()),
  call: z.object({
    rpc: z.object({ id: z.union([z.string(), z.number(), z.null()]).optional(), method: z.string().optional(), kind: z.literal("request"), toolName: z.string().optional() }),
    era: z.enum(["modern", "legacy"]),
    protocolVersion: z.string().optional(),
  }),
});

function resumable(message: Record<string, unknown>, facts: Facts & { message: MessageFacts }): z.infer<typeof ResumableSchema> {
  const { id, method, toolName } = facts.rpc;
  const rpc = { ...(id !== undefined ? { id } : {}), ...(method ? { method } : {}), kind: "request" as const, ...(toolName ? { toolName } : {}) };
  return { message, call: { rpc, era: facts.message.request.era, ...(facts.protocolVersion ? { protocolVersion: facts.protocolVersion } : {}) } };
}

/**
 * GET: 405, except a legacy Last-Event-ID resumption of a stream that was cut on purpose. The resumed stream carries
 * the call's facts (no body was read: `text` stays empty), so the journal and the classifier treat it as the call's.
 */
function resume(headers: Record<string, string>, session: SessionRuntime): Handled {
  return resumed(headers, session) ?? { response: methodNotAllowed() };
}

/** The resumption a Last-Event-ID names, or undefined when none was kept under it. */
function resumed(headers: Record<string, string>, session: SessionRuntime): Handled | undefined {
  const lastEventId = headers["last-event-id"];
  const kept = ResumableSchema.safeParse(lastEventId ? session.takeResumed(lastEventId) : undefined);
  if (!kept.success) return undefined;
  const { message, call } = kept.data;
  const response = new Response(sseEvent(message, { id: `${lastEventId}-resumed` }), { status: 200, headers: SSE_HEADERS });
  return { response, facts: { text: "", body: undefined, headers, rpc: call.rpc, era: call.era, ...(call.protocolVersion ? { protocolVersion: call.protocolVersion } : {}) } };
}
