/**
 * The MCP endpoint as a pipeline, the same for every answer source (src/mcp/source.ts: the built-in server, an
 * upstream, a recording). One POST goes through three stages:
 *
 *   1. read    (src/mcp/read.ts)   body, JSON-RPC message, era, headers and legacy session, read once into Facts;
 *   2. decide  (decideFault here)  the request is counted in one write and the scenario picks a fault, or none;
 *   3. perform (respond here)      the fault interpreter (src/faults/perform.ts) performs the decision, asking the
 *                                  source for its answer only when the fault reads it.
 *
 * The order of a fault against validation, which is what a client sees when both apply:
 *   - A body that is not one JSON-RPC message (too large, not JSON, a batch, not JSON-RPC) is answered in stage 1:
 *     no scenario sees it and it is not counted, since a scenario decides on a method.
 *   - A client's response to a server request (legacy eras) goes to the source at once; it is not a request to fault.
 *   - A transport fault (TRANSPORT_FAULT_KINDS in src/faults/schema.ts: an HTTP status, 429, 401, 403, an expired
 *     session, a delay) wins over protocol validation, as a proxy or gateway in front of a server would answer
 *     before any MCP processing: a scenario's 503 is a 503 even for a request whose headers or capabilities are wrong.
 *   - Otherwise a protocol error found in stage 1 (2026-07-28 _meta and header checks, a missing client capability;
 *     legacy Mcp-Session-Id and MCP-Protocol-Version checks) is the answer, sent as JSON with its own status; a fault
 *     that shapes an answer (envelope, malformed, drip, ...) applies to that error as to any answer.
 *   - Then the source's answer, shaped by the fault if there is one. An unknown method is the handler stage's answer.
 *     A notification is the source's to answer; only a transport fault applies to it.
 *   - Under an upstream's rules (proxy mode) the upstream validates and owns the MCP sessions: stage 1's protocol
 *     error and Faultline's MCP session facts are dropped, and the request is forwarded as it came.
 * Every response ends within FAULTLINE_MAX_RESPONSE_SECONDS (src/mcp/deadline.ts), enforced while it is written.
 */
import { cutName } from "../base/stored-bounds.ts";
import { z } from "zod";
import type { Decision, Fault } from "../faults/schema.ts";
import { isTransportFault } from "../faults/schema.ts";
import { perform, replyWith, type PerformInput } from "../faults/perform.ts";
import type { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage, type RpcError } from "../wire/jsonrpc.ts";
import { jsonResponse, textResponse } from "../wire/response.ts";
import { SSE_HEADERS, sseEvent } from "../wire/sse.ts";
import { MODERN_VERSION } from "../wire/versions.ts";
import { builtinSource } from "./builtin.ts";
import type { Effects, Facts, Handled, MessageFacts } from "./facts.ts";
import { lowerHeaders, readPost } from "./read.ts";
import { progressTokenOf } from "./notifications.ts";
import type { ActiveScenario, SessionRuntime } from "./runtime.ts";
import type { AnswerSource, Exchange } from "./source.ts";

/**
 * Serves one HTTP request on a session's MCP endpoint, in either era, from `source` (the built-in server unless the
 * session named another). `origin` starts the URLs the answer names (the public origin behind a reverse proxy); by
 * default the origin the request came to.
 */
export async function handleMcp<Trace = never>(
  request: Request,
  session: SessionRuntime,
  active: ActiveScenario,
  deadline: Deadline,
  origin = new URL(request.url).origin,
  source: AnswerSource<Trace> = builtinSource(active) as AnswerSource<Trace>,
): Promise<Handled<Trace>> {
  const exchange: Exchange = { request, headers: lowerHeaders(request.headers), session, active, deadline, origin };
  // A request on one of Faultline's own MCP sessions: its response ends if every MCP session is ended at once.
  if (source.rules === "own" && exchange.headers["mcp-session-id"] !== undefined) session.track?.(deadline);
  const kept = request.method === "GET" ? resumed<Trace>(exchange.headers, session) : undefined;
  if (kept) return kept;
  const standalone = request.method === "GET" && source.rules === "own" ? await standaloneGet<Trace>(exchange) : undefined;
  if (standalone) return standalone;
  if (request.method !== "POST") return source.other(exchange);

  const read = await readPost(request, exchange.headers, session, source.tools);
  if (read.response) return { response: read.response, facts: read.facts, ...toolEffects(read.facts, NO_EFFECTS) };
  if ("clientResponse" in read) return { ...(await source.clientResponse(exchange, read.facts, read.clientResponse.message)), facts: read.facts };

  const { facts, rejection } = source.rules === "own" ? read : underUpstreamRules(read.facts, exchange.headers);
  const decision = decideFault(facts.message, rejection !== undefined, session, active);
  const answered = await respond(exchange, facts, rejection, decision?.fault, source);
  const decided = answered.decision ?? decision;
  return {
    response: answered.response,
    facts,
    ...(decided ? { decision: decided } : {}),
    deadline,
    ...toolEffects(facts, answered.effects),
    ...(answered.trace ? { proxied: answered.trace } : {}),
  };
}

/**
 * Legacy eras: a standalone GET stream as the scenario decides it (2025-11-25 transports, "Listening for Messages from
 * the Server": the server MUST return text/event-stream or 405), or undefined when the scenario decides none, which
 * leaves the GET to the source (405). A GET that names 2026-07-28 gets none: that era has no GET stream.
 */
async function standaloneGet<Trace>(exchange: Exchange): Promise<Handled<Trace> | undefined> {
  const { headers, session, active } = exchange;
  if (!active.scenario.decideGet || headers["mcp-protocol-version"] === MODERN_VERSION || !(headers.accept ?? "").includes("text/event-stream")) return undefined;
  // 2025-11-25 transports: a request with a session id the server does not know (or has ended) MUST get 404. Counted
  // before nothing, so made-up ids move no count.
  const mcpSessionId = headers["mcp-session-id"];
  if (mcpSessionId !== undefined && (session.getMcpSession(mcpSessionId)?.ended ?? true)) {
    return { response: jsonResponse(404, errorMessage(undefined, ErrorCode.InvalidRequest, "Session not found")), deadline: exchange.deadline };
  }
  const decision = active.scenario.decideGet({ params: active.params, headers, count: (key) => session.count(`scenario:${key}`), now: session.now() });
  if (!decision) return undefined;
  const response = await perform(decision.fault, {
    era: "legacy",
    requestId: undefined,
    stream: true,
    reply: replyWith(undefined),
    origin: exchange.origin,
    waitUntil: (promise) => session.waitUntil(promise),
    deadline: exchange.deadline,
  });
  return { response, decision, deadline: exchange.deadline };
}

/** Only a tools/call request runs a tool, so only its entry says whether it ran. */
function toolEffects(facts: Facts | undefined, effects: () => Effects): { effects?: () => Effects } {
  return facts?.rpc.kind === "request" && facts.rpc.method === "tools/call" ? { effects } : {};
}

const NO_EFFECTS = (): Effects => "none";

/**
 * An upstream validates its own requests and owns its MCP sessions: Faultline's session table, the protocol error
 * the read found and the new session id it would issue do not apply, and the client's Mcp-Session-Id is the upstream's.
 */
function underUpstreamRules(facts: Facts & { message: MessageFacts }, headers: Record<string, string>): { facts: Facts & { message: MessageFacts }; rejection?: undefined } {
  const { newMcpSessionId: _unused, mcpSession: _none, ...rest } = facts.message;
  const mcpSessionId = headers["mcp-session-id"];
  return { facts: { ...facts, message: { ...rest, request: { ...rest.request, ...(mcpSessionId ? { mcpSessionId } : { mcpSessionId: undefined }) } } } };
}

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

interface Responded<Trace> {
  response: Response;
  effects: () => Effects;
  /** Set when the source chose the answer itself (src/mcp/source.ts). */
  decision?: Decision;
  trace?: () => Promise<Trace>;
}

/**
 * Stage 3: performs the fault on the source's answer, which is asked for only when the fault reads it; `effects`
 * tells whether the tool ran. A transport fault or a rejection answers before the source is asked: "none".
 */
async function respond<Trace>(
  exchange: Exchange,
  facts: Facts & { message: MessageFacts },
  rejection: RpcError | undefined,
  fault: Fault | undefined,
  source: AnswerSource<Trace>,
): Promise<Responded<Trace>> {
  const { message } = facts;
  const progress = progressTokenOf(message.params);
  const input: PerformInput = {
    era: message.request.era,
    requestId: message.requestId,
    stream: false,
    reply: replyWith(undefined),
    origin: exchange.origin,
    mcpPath: new URL(exchange.request.url).pathname,
    keepForResume: (eventId, kept) => exchange.session.keepForResume(eventId, resumable(kept, facts)),
    waitUntil: (promise) => exchange.session.waitUntil(promise),
    deadline: exchange.deadline,
    ...(progress !== undefined ? { progressToken: progress } : {}),
  };
  const none = async (response: Promise<Response>): Promise<Responded<Trace>> => {
    const trace = source.notAsked?.(exchange, facts);
    return { response: await response, effects: NO_EFFECTS, ...(trace ? { trace } : {}) };
  };
  if (fault && isTransportFault(fault) && fault.kind !== "delay") return none(perform(fault, input));
  const request = message.incoming.kind === "request";
  if (rejection && request) {
    const error = errorMessage(message.requestId, rejection.code, rejection.message, rejection.data);
    return none(perform(fault, { ...input, reply: replyWith(error, rejection.httpStatus) }));
  }
  // Nothing but a transport fault can shape the answer to a notification, which has none to shape.
  const applies = fault && (request || isTransportFault(fault)) ? fault : undefined;
  const answer = source.answer(exchange, facts);
  const chosen = answer.decision?.fault ?? applies;
  const sourced: PerformInput = { ...input, stream: answer.stream, reply: answer.reply, ...(answer.headers ? { headers: answer.headers } : {}) };
  const response = await (chosen || !answer.asIs ? perform(chosen, sourced) : answer.asIs());
  // An injected tool error replaces the answer, but stands for a tool that ran and reported its own failure.
  const effects = chosen?.kind === "tool_error" ? () => "possible" as const : answer.effects;
  return { response, effects, ...(answer.decision ? { decision: answer.decision } : {}), ...(answer.trace ? { trace: answer.trace } : {}) };
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
  // Stored: the names cut like the journal's (src/base/stored-bounds.ts).
  const rpc = { ...(id !== undefined ? { id } : {}), ...(method ? { method: cutName(method) } : {}), kind: "request" as const, ...(toolName ? { toolName: cutName(toolName) } : {}) };
  return { message, call: { rpc, era: facts.message.request.era, ...(facts.protocolVersion ? { protocolVersion: facts.protocolVersion } : {}) } };
}

/**
 * A legacy Last-Event-ID resumption of a stream a fault cut (kept by Faultline, whatever the source), or undefined
 * when none was kept under that id. The resumed stream carries the call's facts (no body was read: `text` stays
 * empty), so the journal and the classifier treat it as the call's.
 */
function resumed<Trace>(headers: Record<string, string>, session: SessionRuntime): Handled<Trace> | undefined {
  const lastEventId = headers["last-event-id"];
  const kept = ResumableSchema.safeParse(lastEventId ? session.takeResumed(lastEventId) : undefined);
  if (!kept.success) return undefined;
  const { message, call } = kept.data;
  const response = textResponse(sseEvent(message, { id: `${lastEventId}-resumed` }), { status: 200, headers: SSE_HEADERS });
  return { response, facts: { text: "", body: undefined, headers, rpc: call.rpc, era: call.era, ...(call.protocolVersion ? { protocolVersion: call.protocolVersion } : {}) } };
}
