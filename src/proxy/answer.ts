import { joined } from "../base/bytes.ts";
import type { Emit, Reply } from "../faults/perform.ts";
import type { Deadline } from "../wire/deadline.ts";
import { parseJsonLimited } from "../base/json-limits.ts";
import { ErrorCode, errorMessage, isRecord, type RequestId } from "../wire/jsonrpc.ts";
import { jsonResponse, textResponse } from "../wire/response.ts";
import { clientResponseHeaders } from "./forward.ts";
import type { UpstreamTrace } from "./journal.ts";
import { sseMessages, type SseEnd } from "./sse-reader.ts";
import { readPrefix } from "./whole-body.ts";

/**
 * Bytes of an upstream answer read for a fault to alter (the size limit of an MCP request, times four): a JSON body,
 * or all of a stream up to its answer (the notifications before it included).
 */
export const MAX_UPSTREAM_ANSWER_BYTES = 4 * 1024 * 1024;

type Message = Record<string, unknown>;

/**
 * The upstream's real answer as the fault interpreter takes it (`answer`, `stream`, `status`, `headers`), so an
 * `alter` fault reshapes what the server really said. A JSON body is read whole (bounded); an SSE stream is read
 * event by event: messages before the answer to the request (notifications, server requests) are sent on as they
 * come, and the answer is what the fault gets. A `response` when the body is not one JSON-RPC message (the fault
 * cannot apply, and the body goes on as it came); "timeout" when a JSON body has not ended by the deadline.
 */
export async function upstreamAnswer(response: Response, requestId: RequestId | undefined, trace: UpstreamTrace, deadline: Deadline): Promise<Reply | "timeout"> {
  const headers = clientResponseHeaders(response.headers);
  trace.answered(response.status, { ...headers });
  const type = headers["content-type"] ?? "";
  // perform sets the content type (and SSE's caching headers) of what it sends.
  for (const name of ["content-type", "cache-control", "x-accel-buffering"]) delete headers[name];
  const status = () => response.status;
  if (!response.body || response.status === 202 || response.status === 204) {
    return { stream: false, status, headers, answer: async () => undefined };
  }
  if (type.includes("text/event-stream")) {
    const body = response.body;
    return { stream: true, status, headers, answer: (emit) => streamAnswer(body, requestId, trace, deadline, emit) };
  }
  if (!type.includes("application/json")) return { response };
  const text = await readBounded(response.body, MAX_UPSTREAM_ANSWER_BYTES, deadline);
  if (text === "timeout") return "timeout";
  if (text === undefined) {
    const reason = `Upstream ${trace.upstream} answered more than ${MAX_UPSTREAM_ANSWER_BYTES} bytes, the most a fault reads`;
    trace.failed(reason);
    return { response: jsonResponse(502, errorMessage(requestId, ErrorCode.InternalError, reason, { upstream: trace.upstream })) };
  }
  trace.read(text, MAX_UPSTREAM_ANSWER_BYTES);
  const parsed = parseJsonLimited(text);
  // Not one JSON-RPC message: sent on as it came (already read, so from the text).
  if (!parsed.ok || !isRecord(parsed.value)) return { response: textResponse(text, { status: response.status, statusText: response.statusText, headers: response.headers }) };
  const message = parsed.value as Message;
  return { stream: false, status, headers, answer: async () => message };
}

/**
 * The answer on an upstream's stream. The messages ahead of it go to `emit` one at a time, each once the client's
 * stream has taken the one before (so no more than that is queued for a client that does not read), and the read
 * stops when that stream has closed. At most MAX_UPSTREAM_ANSWER_BYTES of the stream are read, until the deadline:
 * past either, the read stops and the answer is an error that says so, journalled as the upstream's `error`.
 */
async function streamAnswer(body: ReadableStream<Uint8Array>, requestId: RequestId | undefined, trace: UpstreamTrace, deadline: Deadline, emit: Emit | undefined): Promise<Message | undefined> {
  const read = sseMessages(body, { maxBytes: MAX_UPSTREAM_ANSWER_BYTES, deadline }, (text) => trace.read(text, MAX_UPSTREAM_ANSWER_BYTES));
  for await (const data of read.messages) {
    const parsed = parseJsonLimited(data);
    if (!parsed.ok || !isRecord(parsed.value)) continue;
    const message = parsed.value as Message;
    if (isAnswerTo(message, requestId)) return message;
    if (emit && (await emit(message)) === false) return undefined;
  }
  return unfinished(read.end(), requestId, trace, deadline);
}

/** What a stream that ended without the answer gives: nothing when it ended by itself, else an error naming the limit. */
function unfinished(end: SseEnd, requestId: RequestId | undefined, trace: UpstreamTrace, deadline: Deadline): Message | undefined {
  if (end === "ended") return undefined;
  if (end === "deadline") deadline.cut = true;
  const reason =
    end === "too_long"
      ? `Upstream ${trace.upstream} sent more than ${MAX_UPSTREAM_ANSWER_BYTES} bytes on its stream without the answer, the most a fault reads: the rest was not read`
      : `Upstream ${trace.upstream} did not send its answer within the ${deadline.seconds} s response deadline (FAULTLINE_MAX_RESPONSE_SECONDS)`;
  trace.failed(reason);
  return errorMessage(requestId, ErrorCode.InternalError, reason, { upstream: trace.upstream });
}

/** A response (result or error) whose id is the request's. */
function isAnswerTo(message: Message, requestId: RequestId | undefined): boolean {
  return !("method" in message) && ("result" in message || "error" in message) && message.id === requestId;
}

/** The body as text, undefined past `cap` bytes, or "timeout" when it has not ended by the deadline. */
async function readBounded(body: ReadableStream<Uint8Array>, cap: number, deadline: Deadline): Promise<string | "timeout" | undefined> {
  const read = await readPrefix(body, cap, deadline);
  if (read.end === "timeout") {
    deadline.cut = true;
    return "timeout";
  }
  if (read.end === "over") return void (await read.rest.cancel().catch(() => undefined));
  if (read.end === "failed") throw read.error;
  return new TextDecoder().decode(joined(read.chunks, read.bytes));
}
