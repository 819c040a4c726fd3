/**
 * Proxy mode: a session with an `upstream` forwards its MCP endpoint to a real MCP server, in either era, and the
 * scenario's fault applies on the way (src/faults/schema.ts, proxyModeOf):
 *   - no fault: the upstream's answer goes back as it arrives, byte for byte (an SSE stream is never buffered);
 *   - `replace`: src/faults/perform.ts answers and the upstream is not called;
 *   - `alter`: the upstream is called and perform reshapes its real answer (src/proxy/answer.ts reads it).
 * A body that is not one JSON-RPC message is answered by Faultline (as without an upstream), never forwarded.
 */
import type { Decision } from "../faults/schema.ts";
import { isTransportFault, proxyModeOf } from "../faults/schema.ts";
import { perform, type PerformInput } from "../faults/perform.ts";
import type { Effects } from "../mcp/facts.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { Facts, Handled, MessageFacts } from "../mcp/facts.ts";
import { ErrorCode, errorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { lowerHeaders, readPost } from "../mcp/read.ts";
import type { ActiveScenario, SessionRuntime } from "../mcp/runtime.ts";
import { openStream } from "../wire/sse.ts";
import { jsonResponse } from "../wire/response.ts";
import { upstreamAnswer } from "./answer.ts";
import type { UpstreamConfig } from "./config.ts";
import { callUpstream, clientResponseHeaders, type UpstreamOutcome } from "./forward.ts";
import { UpstreamTrace } from "./journal.ts";
import { upstreamToolAnnotations } from "./tools.ts";

export interface ProxyContext {
  session: SessionRuntime;
  active: ActiveScenario;
  deadline: Deadline;
  origin: string;
  /** Stage 2 of the pipeline: counts the request and asks the scenario. */
  decide: (message: MessageFacts) => Decision | undefined;
  /** A legacy Last-Event-ID resumption of a stream a fault cut (kept by Faultline, not the upstream), or undefined. */
  resume: (headers: Record<string, string>) => Handled | undefined;
  /** Keeps a cut stream's final message for that resumption, with the call it answers. */
  keepForResume: (eventId: string, kept: Record<string, unknown>, facts: Facts & { message: MessageFacts }) => void;
}

export async function proxyMcp(request: Request, upstream: UpstreamConfig, context: ProxyContext): Promise<Handled> {
  const headers = lowerHeaders(request.headers);
  if (request.method !== "POST") {
    const resumed = request.method === "GET" ? context.resume(headers) : undefined;
    return resumed ?? passThrough(request.method, request.headers, undefined, upstream, context);
  }
  const read = await readPost(request, headers, context.session, []);
  if (read.response) return { response: read.response, facts: read.facts };
  const facts = read.facts;
  if ("clientResponse" in read) return { ...(await passThrough("POST", request.headers, facts.text, upstream, context)), facts };

  // The upstream owns the MCP session and validates the request: Faultline's own session table and checks do not apply.
  const { newMcpSessionId: _unused, mcpSession: _none, ...rest } = read.facts.message;
  const mcpSessionId = headers["mcp-session-id"];
  const message: MessageFacts = { ...rest, request: { ...rest.request, ...(mcpSessionId ? { mcpSessionId } : { mcpSessionId: undefined }) } };
  const proxiedFacts = { ...facts, message };
  const decision = context.decide(message);
  const fault = decision?.fault;
  const applies = fault !== undefined && (message.incoming.kind === "request" || isTransportFault(fault));
  const effects = (value: () => Effects) => (message.request.method === "tools/call" ? { effects: value } : {});
  const tool = message.request.method === "tools/call" ? describeTool(message, request.headers, upstream, context) : undefined;

  if (!applies) {
    const { failed, ...handled } = await passThrough("POST", request.headers, facts.text, upstream, context, message.requestId, tool);
    // The upstream ran the tool when it answered 2xx in full; an error status may come before or after it ran.
    const ran = (): Effects => failed ?? (handled.response.status < 300 && !context.deadline.cut ? "ran" : "possible");
    return { ...handled, facts: proxiedFacts, ...(decision ? { decision } : {}), ...effects(ran) };
  }
  const mode = proxyModeOf(fault);
  const trace = new UpstreamTrace(upstream.url, mode === "replace" ? "replace" : "alter");
  if (tool) trace.describe(tool);
  const input: PerformInput = {
    era: message.request.era,
    requestId: message.requestId,
    stream: context.active.params.responseMode === "sse",
    answer: async () => {
      throw new Error(`a ${fault.kind} fault replaces the answer and never reads it`);
    },
    origin: context.origin,
    waitUntil: (promise) => context.session.waitUntil(promise),
    deadline: context.deadline,
    keepForResume: (eventId, kept) => context.keepForResume(eventId, kept, proxiedFacts),
  };
  const handled = { facts: proxiedFacts, decision, deadline: context.deadline, proxied: () => trace.done() };
  if (mode !== "alter") {
    return { ...handled, response: await perform(fault, input), ...effects(() => (fault.kind === "tool_error" ? "possible" : "none")) };
  }
  const outcome = await callUpstream("POST", request.headers, facts.text, upstream, context.deadline);
  trace.requested(outcome.requestHeaders);
  if (!outcome.ok) return { ...handled, response: failure(outcome, message.requestId, trace), ...effects(() => (outcome.status === 504 ? "possible" : "none")) };
  const altered = await upstreamAnswer(outcome.response, message.requestId, trace, context.deadline);
  if (altered === "timeout") {
    const reason = `Upstream ${upstream.url} did not finish its answer within the ${context.deadline.seconds} s response deadline (FAULTLINE_MAX_RESPONSE_SECONDS)`;
    return { ...handled, response: failure({ ok: false, status: 504, reason, requestHeaders: outcome.requestHeaders }, message.requestId, trace), ...effects(() => "possible") };
  }
  if (altered instanceof Response) {
    trace.note("the upstream's answer is not one JSON-RPC message, so the fault could not change it: passed on as it came");
    return { ...handled, response: pipe(altered, context), ...effects(() => "ran") };
  }
  const response = await perform(fault, { ...input, ...altered });
  return { ...handled, response, ...effects(() => (context.deadline.cut ? "possible" : "ran")) };
}

/** Forwards as is and sends the upstream's answer back as it arrives. */
async function passThrough(
  method: string,
  clientHeaders: Headers,
  body: string | undefined,
  upstream: UpstreamConfig,
  context: ProxyContext,
  id?: RequestId,
  tool?: Promise<ProxiedTool | undefined>,
): Promise<Handled & { failed?: Effects }> {
  const trace = new UpstreamTrace(upstream.url, "forward");
  if (tool) trace.describe(tool);
  const outcome = await callUpstream(method, clientHeaders, body, upstream, context.deadline);
  trace.requested(outcome.requestHeaders);
  const proxied = () => trace.done();
  if (!outcome.ok) return { response: failure(outcome, id, trace), deadline: context.deadline, proxied, failed: outcome.status === 504 ? "possible" : "none" };
  trace.answered(outcome.response.status, clientResponseHeaders(outcome.response.headers));
  return { response: pipe(outcome.response, context), deadline: context.deadline, proxied };
}

type ProxiedTool = { name: string; annotations?: Record<string, unknown> };

/** The called tool as the upstream's tools/list declares it, read alongside the call (src/proxy/tools.ts). */
function describeTool(message: MessageFacts, headers: Headers, upstream: UpstreamConfig, context: ProxyContext): Promise<ProxiedTool | undefined> | undefined {
  const name = message.request.toolName;
  if (!name) return undefined;
  const read = upstreamToolAnnotations(context.session, upstream, headers, message, context.deadline, name);
  return read.then(({ known, annotations }) => (known ? { name, ...(annotations ? { annotations } : {}) } : undefined));
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The upstream's response with its body copied chunk by chunk as it comes, until it ends or the deadline cuts it. */
function pipe(upstream: Response, context: ProxyContext): Response {
  const headers = clientResponseHeaders(upstream.headers);
  const source = upstream.body;
  if (!source || NULL_BODY_STATUSES.has(upstream.status)) return new Response(null, { status: upstream.status, statusText: upstream.statusText, headers });
  const sse = (headers["content-type"] ?? "").includes("text/event-stream");
  const readable = openStream({ waitUntil: (p) => context.session.waitUntil(p), deadline: context.deadline, sse }, async (out) => {
    const reader = source.getReader();
    const closed = out.ended.then(() => ({ done: true as const, value: undefined }));
    try {
      while (out.open) {
        const { done, value } = await Promise.race([reader.read(), closed]);
        if (done) break;
        await out.write(value);
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  });
  return new Response(readable, { status: upstream.status, statusText: upstream.statusText, headers });
}

/** 502 (unreachable) or 504 (no answer by the deadline), with a JSON-RPC error that names the upstream. */
function failure(outcome: Extract<UpstreamOutcome, { ok: false }>, id: RequestId | undefined, trace: UpstreamTrace): Response {
  trace.failed(outcome.reason);
  return jsonResponse(outcome.status, errorMessage(id, ErrorCode.InternalError, outcome.reason, { upstream: trace.upstream }));
}
