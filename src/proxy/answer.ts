import type { Reply } from "../faults/perform.ts";
import type { Deadline } from "../wire/deadline.ts";
import { parseJsonLimited } from "../base/json-limits.ts";
import { ErrorCode, errorMessage, isRecord, type RequestId } from "../wire/jsonrpc.ts";
import { jsonResponse } from "../wire/response.ts";
import { clientResponseHeaders } from "./forward.ts";
import type { UpstreamTrace } from "./journal.ts";
import { sseMessages } from "./sse-reader.ts";

/** Bytes of an upstream answer read for a fault to alter (the size limit of an MCP request, times four). */
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
    return {
      stream: true,
      status,
      headers,
      answer: async (emit) => {
        for await (const data of sseMessages(body, MAX_UPSTREAM_ANSWER_BYTES, (text) => trace.read(text, MAX_UPSTREAM_ANSWER_BYTES))) {
          const parsed = parseJsonLimited(data);
          if (!parsed.ok || !isRecord(parsed.value)) continue;
          const message = parsed.value as Message;
          if (isAnswerTo(message, requestId)) return message;
          emit?.(message);
        }
        return undefined;
      },
    };
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
  if (!parsed.ok || !isRecord(parsed.value)) return { response: new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }) };
  const message = parsed.value as Message;
  return { stream: false, status, headers, answer: async () => message };
}

/** A response (result or error) whose id is the request's. */
function isAnswerTo(message: Message, requestId: RequestId | undefined): boolean {
  return !("method" in message) && ("result" in message || "error" in message) && message.id === requestId;
}

/** The body as text, undefined past `cap` bytes, or "timeout" when it has not ended by the deadline. */
async function readBounded(body: ReadableStream<Uint8Array>, cap: number, deadline: Deadline): Promise<string | "timeout" | undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), deadline.remainingMs())));
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), expired]);
      if (read === "timeout") {
        deadline.cut = true;
        return "timeout";
      }
      const { done, value } = read;
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (bytes > cap) return undefined;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}
