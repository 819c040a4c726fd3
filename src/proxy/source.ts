/**
 * Proxy mode: a session with an `upstream` answers from a real MCP server, in either era (an answer source,
 * src/mcp/source.ts). The pipeline's fault applies on the way:
 *   - no fault: the upstream's answer goes back byte for byte (an SSE stream as it arrives, never buffered; see pipe);
 *   - a fault that replaces the answer never asks for it, so the upstream is not called;
 *   - a fault that reads the answer calls the upstream and reshapes its real answer (src/proxy/answer.ts reads it).
 * The journal's `proxied.mode` (forward, replace, alter) says which of these happened.
 */
import { joined } from "../base/bytes.ts";
import type { Reply } from "../faults/perform.ts";
import type { UpstreamSide } from "../journal/entry.ts";
import type { Effects, Facts, Handled, MessageFacts } from "../mcp/facts.ts";
import type { AnswerSource, Exchange, SourceAnswer } from "../mcp/source.ts";
import { ErrorCode, errorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { jsonResponse, textResponse } from "../wire/response.ts";
import { openStream } from "../wire/sse.ts";
import { upstreamAnswer } from "./answer.ts";
import type { UpstreamConfig } from "./config.ts";
import { callUpstream, clientResponseHeaders, type UpstreamOutcome } from "./forward.ts";
import { UpstreamTrace } from "./journal.ts";
import { upstreamToolAnnotations } from "./tools.ts";
import { exactText, readPrefix, resumed } from "./whole-body.ts";

export function proxySource(upstream: UpstreamConfig): AnswerSource<UpstreamSide> {
  return {
    rules: "upstream",
    tools: [],
    other: (exchange) => forwarded(exchange, exchange.request.method, undefined, upstream),
    clientResponse: async (exchange, facts) => ({ ...(await forwarded(exchange, "POST", facts.text, upstream)), facts }),
    answer: (exchange, facts) => proxiedAnswer(exchange, facts, upstream),
    notAsked: (exchange, facts) => {
      const trace = new UpstreamTrace(upstream.url, "replace");
      if (facts.message.request.method === "tools/call") describeTool(trace, exchange, facts.message, upstream);
      return () => trace.done();
    },
  };
}

/** Forwards a request that is not a call to answer (a GET, a DELETE, a client's response) and passes the answer on. */
async function forwarded(exchange: Exchange, method: string, body: string | undefined, upstream: UpstreamConfig): Promise<Handled<UpstreamSide>> {
  const trace = new UpstreamTrace(upstream.url, "forward");
  const { response } = await passThrough(exchange, method, body, upstream, trace, undefined);
  return { response, deadline: exchange.deadline, proxied: () => trace.done() };
}

function proxiedAnswer(exchange: Exchange, facts: Facts & { message: MessageFacts }, upstream: UpstreamConfig): SourceAnswer<UpstreamSide> {
  const { message } = facts;
  const id = message.requestId;
  const { deadline } = exchange;
  const trace = new UpstreamTrace(upstream.url, "replace");
  if (message.request.method === "tools/call") describeTool(trace, exchange, message, upstream);
  // What the upstream did, as far as it is known when the exchange is journalled: "none" until it is called.
  let ran: () => Effects = () => "none";

  const asIs = async (): Promise<Response> => {
    trace.mode("forward");
    const { response, failed } = await passThrough(exchange, "POST", facts.text, upstream, trace, id);
    // The upstream ran the tool when it answered 2xx in full; an error status may come before or after it ran.
    ran = () => failed ?? (response.status < 300 && !deadline.cut ? "ran" : "possible");
    return response;
  };
  const reply = async (): Promise<Reply> => {
    trace.mode("alter");
    // Called, so it may run the tool: a fault that answers before the upstream does (an intermediary's idle cut) must
    // not read as "none".
    ran = () => "possible";
    const outcome = await callUpstream("POST", exchange.request.headers, facts.text, upstream, deadline);
    trace.requested(outcome.requestHeaders);
    if (!outcome.ok) {
      ran = () => (outcome.status === 504 ? "possible" : "none");
      return { response: failure(outcome, id, trace) };
    }
    const altered = await upstreamAnswer(outcome.response, id, trace, deadline);
    if (altered === "timeout") {
      ran = () => "possible";
      const reason = `Upstream ${trace.upstream} did not finish its answer within the ${deadline.seconds} s response deadline (FAULTLINE_MAX_RESPONSE_SECONDS)`;
      return { response: failure({ ok: false, status: 504, reason, requestHeaders: outcome.requestHeaders }, id, trace) };
    }
    if ("response" in altered) {
      ran = () => "ran";
      trace.note("the upstream's answer is not one JSON-RPC message, so the fault could not change it: passed on as it came");
      return { response: await pipe(altered.response, exchange) };
    }
    ran = () => (deadline.cut ? "possible" : "ran");
    return altered;
  };
  return { asIs, reply, stream: exchange.active.params.responseMode === "sse", effects: () => ran(), trace: () => trace.done() };
}

/** Forwards as is and sends the upstream's answer back as it arrives; `failed` when the upstream gave no answer. */
async function passThrough(exchange: Exchange, method: string, body: string | undefined, upstream: UpstreamConfig, trace: UpstreamTrace, id: RequestId | undefined): Promise<{ response: Response; failed?: Effects }> {
  const outcome = await callUpstream(method, exchange.request.headers, body, upstream, exchange.deadline);
  trace.requested(outcome.requestHeaders);
  if (!outcome.ok) return { response: failure(outcome, id, trace), failed: outcome.status === 504 ? "possible" : "none" };
  trace.answered(outcome.response.status, clientResponseHeaders(outcome.response.headers));
  return { response: await pipe(outcome.response, exchange) };
}

/** The called tool as the upstream's tools/list declares it, read alongside the call (src/proxy/tools.ts). */
function describeTool(trace: UpstreamTrace, exchange: Exchange, message: MessageFacts, upstream: UpstreamConfig): void {
  const name = message.request.toolName;
  if (!name) return;
  const read = upstreamToolAnnotations(exchange.session, upstream, exchange.request.headers, message, exchange.deadline, name);
  trace.describe(read.then(({ known, annotations }) => (known ? { name, ...(annotations ? { annotations } : {}) } : undefined)));
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A JSON answer up to this many bytes is read whole and sent in one piece, as a buffering proxy does: the recording
 * and the journal then take its text as it is, with no relay of their own (an answer has its meaning only once whole).
 */
export const WHOLE_ANSWER_BYTES = 1024 * 1024;

/**
 * The upstream's response for the client. An SSE stream, any body that is not JSON, and a JSON body past
 * WHOLE_ANSWER_BYTES are copied chunk by chunk as they come; a JSON body within it is read whole first. Byte for byte
 * either way (one that is not exact UTF-8 goes as bytes), and cut at the deadline like every answer.
 */
async function pipe(upstream: Response, exchange: Exchange): Promise<Response> {
  const init = { status: upstream.status, statusText: upstream.statusText, headers: clientResponseHeaders(upstream.headers) };
  const source = upstream.body;
  if (!source || NULL_BODY_STATUSES.has(upstream.status)) return new Response(null, init);
  const type = init.headers["content-type"] ?? "";
  const sse = type.includes("text/event-stream");
  if (sse || !type.includes("json")) return copied(source, exchange, sse, init);
  const read = await readPrefix(source, WHOLE_ANSWER_BYTES, exchange.deadline);
  if (read.end === "over") return copied(resumed(read.chunks, read.rest), exchange, false, init);
  // At the deadline, or when the upstream's body broke off, the client gets what came, ended there, as when streamed.
  if (read.end === "timeout") exchange.deadline.cut = true;
  const bytes = joined(read.chunks, read.bytes);
  const text = exactText(bytes);
  return text !== undefined ? textResponse(text, init) : new Response(bytes, init);
}

/** The body copied chunk by chunk as it comes, until it ends or the deadline cuts it. */
function copied(source: ReadableStream<Uint8Array>, exchange: Exchange, sse: boolean, init: ResponseInit): Response {
  const readable = openStream({ waitUntil: (p) => exchange.session.waitUntil(p), deadline: exchange.deadline, sse }, async (out) => {
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
  return new Response(readable, init);
}

/** 502 (unreachable) or 504 (no answer by the deadline), with a JSON-RPC error that names the upstream. */
function failure(outcome: Extract<UpstreamOutcome, { ok: false }>, id: RequestId | undefined, trace: UpstreamTrace): Response {
  trace.failed(outcome.reason);
  return jsonResponse(outcome.status, errorMessage(id, ErrorCode.InternalError, outcome.reason, { upstream: trace.upstream }));
}
