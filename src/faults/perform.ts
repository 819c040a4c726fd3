import type { BodyKind, Fault } from "./schema.ts";
import type { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage, injectedErrorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { withResultType, withServerInfo } from "../wire/result-shape.ts";
import { openStream, primingEvent, sseComment, sseEvent, SSE_HEADERS, type StreamWriter } from "../wire/sse.ts";
import type { Era } from "../wire/versions.ts";
import { JSON_HEADERS, jsonResponse } from "../wire/response.ts";
import { sleep } from "../base/sleep.ts";
import { resourceMetadataUrl } from "../wire/resource-metadata.ts";
import { sessionExpiredResponse } from "./session-expired.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";

type Message = Record<string, unknown>;

/**
 * Writes a notification or server request ahead of the answer on a stream. The stream's writer resolves once the
 * client's stream has taken the message, to false when that stream is closed (the client went away, the deadline cut
 * it): a source that reads an unbounded supply (an upstream's stream) awaits it, so it reads no faster than the
 * client reads, and stops at false.
 */
export type Emit = (message: Message) => void | Promise<boolean>;

/**
 * Works out what the server would send: the JSON-RPC response, or undefined for a notification (202, no body).
 * `emit` writes notifications and server requests ahead of it when the answer goes on a stream.
 */
export type Answer = (emit: Emit | undefined) => Promise<Message | undefined>;

/**
 * What an answer source (src/mcp/source.ts) gives a fault that reads its answer: the JSON-RPC answer to reshape, with
 * how it travels; or `response`, the source's own answer when it is not one JSON-RPC message a fault can reshape (an
 * upstream's error page, a 502), which goes out as it is.
 */
export type Reply =
  | {
      answer: Answer;
      /** The HTTP status of a JSON answer, read after `answer` ran (an error such as -32021 travels with 400). */
      status?: () => number;
      /** Overrides the framing the input named, once the source knows it (an upstream's content type). */
      stream?: boolean;
      /** Overrides the input's headers, once the source knows them (an upstream's response headers). */
      headers?: Record<string, string>;
    }
  | { response: Response };

export interface PerformInput {
  era: Era;
  /** The request's id; undefined for a notification. */
  requestId: RequestId | undefined;
  /** Answer on an SSE stream even without a fault that asks for one. */
  stream: boolean;
  /**
   * Asks the answer source for its answer. Only a fault that reads the answer calls it, at most once, so "does the
   * fault replace the answer or alter it" is what the fault's branch below does, not a property declared beside it:
   * a replacing fault never runs the handler, never calls the upstream and never takes a recorded exchange's answer.
   */
  reply: () => Promise<Reply>;
  /** Extra response headers (e.g. Mcp-Session-Id). */
  headers?: Record<string, string>;
  /** Keeps a cut stream's final message for a Last-Event-ID resumption (legacy). */
  keepForResume?: (eventId: string, message: Message) => void;
  /** Base URL used in WWW-Authenticate resource_metadata. */
  origin: string;
  /** The path of the MCP endpoint the request came to: resource_metadata names that resource's metadata (RFC 9728 §3.1). */
  mcpPath?: string;
  /** Keeps the worker alive for work that continues after the response started. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** When the response must have ended (FAULTLINE_MAX_RESPONSE_SECONDS). */
  deadline: Deadline;
  /** The request's _meta.progressToken, which a `progress` fault reports against; absent when it has none. */
  progressToken?: string | number;
}

/** The input once the source has replied: the answer, its status, framing and headers settled. */
interface Answered extends Omit<PerformInput, "reply" | "headers"> {
  answer: Answer;
  status: () => number;
  headers: Record<string, string>;
}

/** Asks the source (once); its own response stands when there is no JSON-RPC answer to reshape. */
async function ask(input: PerformInput): Promise<Answered | Response> {
  const reply = await input.reply();
  if ("response" in reply) return reply.response;
  return { ...input, answer: reply.answer, status: reply.status ?? (() => 200), stream: reply.stream ?? input.stream, headers: reply.headers ?? input.headers ?? {} };
}

/** Runs `use` on the source's answer, or passes on the source's own response. */
async function withAnswer(input: PerformInput, use: (answered: Answered) => Response | Promise<Response>): Promise<Response> {
  const answered = await ask(input);
  return answered instanceof Response ? answered : use(answered);
}

/** A source that answers with a fixed message: a rejection's error, an injected tool error. */
export const replyWith = (message: Message | undefined, status = 200): (() => Promise<Reply>) => async () => ({ answer: async () => message, status: () => status });

/** The one interpreter: turns a fault (or none) into the HTTP response. */
export async function perform(fault: Fault | undefined, input: PerformInput): Promise<Response> {
  if (!fault) return withAnswer(input, deliver);
  switch (fault.kind) {
    case "http_status":
      return statusResponse(fault.status, fault.body, input, fault.retryAfter);
    case "rate_limited":
      return statusResponse(429, fault.body, input, fault.retryAfter ?? undefined, rateLimitHeaders(fault.rateLimit, Date.now()));
    case "unauthorized": {
      const params = [`resource_metadata="${resourceMetadataUrl(input.origin, input.mcpPath ?? "/mcp")}"`];
      if (fault.error) params.unshift(`error="${fault.error}"`);
      if (fault.scope) params.push(`scope="${fault.scope}"`);
      return jsonResponse(401, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Unauthorized: a valid bearer token is required"), {
        "www-authenticate": `Bearer ${params.join(", ")}`,
      });
    }
    case "insufficient_scope":
      return jsonResponse(403, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Forbidden: insufficient scope"), {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${fault.scope}", resource_metadata="${resourceMetadataUrl(input.origin, input.mcpPath ?? "/mcp")}", error_description="This call needs the ${fault.scope} scope"`,
      });
    case "session_expired":
      return sessionExpiredResponse(fault.variant, input.requestId);
    case "unsupported_version": {
      // 2026-07-28 versioning: -32022 with HTTP 400. 2025-11-25 and 2025-06-18 lifecycle: initialize gets -32602
      // "Unsupported protocol version" with the same data; no status is named, so 200 like other JSON-RPC errors.
      const data = { supported: fault.supported, requested: fault.requested };
      return input.era === "modern"
        ? jsonResponse(400, errorMessage(input.requestId, ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", data))
        : jsonResponse(200, errorMessage(input.requestId, ErrorCode.InvalidParams, "Unsupported protocol version", data));
    }
    case "jsonrpc_error":
      return jsonResponse(fault.httpStatus, errorMessage(input.requestId, fault.code, fault.message ?? injectedErrorMessage(fault.code), fault.data));
    case "tool_error": {
      const result = withServerInfo(input.era, withResultType(input.era, { content: [{ type: "text", text: fault.text }], isError: true }));
      return deliver({ ...input, headers: input.headers ?? {}, status: () => 200, answer: async () => ({ jsonrpc: "2.0", id: input.requestId, result }) });
    }
    case "respond_sse":
      return withAnswer(input, (answered) => deliver({ ...answered, stream: true }));
    case "delay":
      // The source is asked first and its answer held back: an upstream has answered (its effect done) before the
      // wait, while the built-in handler, which runs when the answer is read, runs after it. A delay past the
      // deadline ends in a response cut at the deadline, like any other.
      return withAnswer(input, async (answered) => {
        await sleep(Math.min(fault.ms, input.deadline.remainingMs()));
        if (input.deadline.remainingMs() > 0) return deliver(answered);
        input.deadline.cut = true;
        return new Response(null, { status: 200, headers: { ...(answered.stream ? SSE_HEADERS : JSON_HEADERS), ...answered.headers } });
      });
    case "stall_stream":
      return withAnswer(input, (answered) =>
        streamed(answered, async (out, emit) => {
          await out.write(sseComment("faultline stall begins"));
          await sleep(fault.ms);
          // Cut by the deadline meanwhile: the answer would go nowhere, so the handler does not run.
          return out.open ? answered.answer(emit) : undefined;
        }),
      );
    case "progress":
      return withAnswer(input, (answered) => longRunning(fault, input.progressToken, answered));
    case "hang":
      return streamed({ ...input, headers: input.headers ?? {} }, async (out) => {
        const until = Date.now() + fault.ms;
        while (out.open && Date.now() < until) {
          await out.write(sseComment("keep-alive"));
          await sleep(Math.min(fault.keepAliveMs, Math.max(0, until - Date.now())));
        }
        return undefined;
      });
    case "cut_stream":
      return withAnswer(input, (answered) =>
        streamed(answered, async (out, emit) => {
          const eventId = `${crypto.randomUUID()}-0`;
          const priming = fault.priming && input.era === "legacy";
          if (priming) await out.write(primingEvent(eventId, fault.retryMs));
          const message = await answered.answer(emit);
          if (priming && message) input.keepForResume?.(eventId, message);
          return undefined;
        }),
      );
    case "drip":
      return withAnswer(input, async (answered) => {
        const message = await answered.answer(undefined);
        if (!message) return accepted();
        const [body, type] = answered.stream ? [sseEvent(message), SSE_HEADERS] : [JSON.stringify(message), JSON_HEADERS];
        // Asks intermediaries not to buffer or compress. `content-encoding: identity` keeps workerd's own gzip of
        // application/json (wrangler dev copies the edge's rule) off the body: that compressor reads the whole
        // drip ahead of the client, so the client got nothing until the end, and a client that left was journalled as
        // sent every byte (issue 24). Unencoded, the client's reading paces the drip and its leaving is seen.
        const unbuffered = { "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", "content-encoding": "identity" };
        return dripResponse(body, fault.chunkBytes, fault.intervalMs, { ...type, ...unbuffered, ...answered.headers }, answered);
      });
    case "malformed":
      return malformed(fault.variant, input);
    case "envelope":
      return withAnswer(input, (answered) => deliver({ ...answered, answer: async (emit) => corrupted(await answered.answer(emit), (m) => corruptEnvelope(fault.variant, m)) }));
    case "bad_result":
      return withAnswer(input, (answered) => deliver({ ...answered, answer: async (emit) => corrupted(await answered.answer(emit), (m) => corruptResult(fault.variant, m)) }));
  }
}

/** A `progress` fault: the call runs long on an SSE stream (runLong), then the source's answer follows. */
function longRunning(fault: Extract<Fault, { kind: "progress" }>, token: string | number | undefined, answered: Answered): Response {
  return streamed(answered, async (out, emit) => {
    await runLong(fault, token, out, emit);
    // Left by the client or cut by the deadline meanwhile: the answer would go nowhere, so the handler does not run.
    return out.open ? answered.answer(emit) : undefined;
  });
}

/**
 * A `progress` fault's run: for `ms`, one notifications/progress every `intervalMs` for the request's progressToken
 * (progress counts the ticks, total is their number, so it increases as every version asks), and only an SSE comment
 * when the request carries no token: a server MUST NOT invent one, and the comment still shows the stream alive.
 */
async function runLong(fault: Extract<Fault, { kind: "progress" }>, token: string | number | undefined, out: StreamWriter, emit: Emit): Promise<void> {
  const until = Date.now() + fault.ms;
  const total = Math.max(1, Math.ceil(fault.ms / fault.intervalMs));
  for (let tick = 1; out.open && Date.now() < until; tick++) {
    if (token === undefined) await out.write(sseComment("faultline: still working"));
    else await emit({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: tick, total, message: `working (${tick} of ${total})` } });
    await sleep(Math.min(fault.intervalMs, Math.max(0, until - Date.now())));
  }
}

const corrupted = (message: Message | undefined, corrupt: (m: Message) => Message) => message && corrupt(message);

/** 202 with no body: the answer to a notification, or to a request the source answered with nothing. */
const accepted = () => new Response(null, { status: 202 });

/** Sends the answer as it is: one JSON body, or an SSE stream when the request asked for one. */
async function deliver(input: Answered): Promise<Response> {
  if (!input.stream) {
    const message = await input.answer(undefined);
    return message ? jsonResponse(input.status(), message, input.headers) : accepted();
  }
  return streamed(input, async (_out, emit) => input.answer(emit));
}

/**
 * Opens an SSE response at once and runs `body` behind it; whatever `body` returns is sent as the final event,
 * and `undefined` closes the stream without one.
 */
function streamed(
  input: Pick<Answered, "waitUntil" | "deadline" | "requestId" | "headers">,
  body: (out: StreamWriter, emit: Emit) => Promise<Message | undefined>,
): Response {
  const readable = openStream({ waitUntil: input.waitUntil, deadline: input.deadline, sse: true }, async (out) => {
    try {
      const final = await body(out, out.send);
      if (final) await out.write(sseEvent(final));
    } catch (error) {
      await out.write(sseEvent(errorMessage(input.requestId, ErrorCode.InternalError, `Internal error: ${String(error)}`)));
    }
  });
  return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...input.headers } });
}

function dripResponse(body: string, chunkBytes: number, intervalMs: number, headers: Record<string, string>, input: Pick<Answered, "waitUntil" | "deadline">): Response {
  const bytes = new TextEncoder().encode(body);
  const sse = headers["content-type"] === SSE_HEADERS["content-type"];
  const readable = openStream({ waitUntil: input.waitUntil, deadline: input.deadline, sse }, async (out) => {
    for (let offset = 0; offset < bytes.length && out.open; offset += chunkBytes) {
      await out.write(bytes.slice(offset, offset + chunkBytes));
      if (offset + chunkBytes < bytes.length) await sleep(intervalMs);
    }
  });
  return new Response(readable, { status: 200, headers });
}

const HTML_PAGE =
  "<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>";

/**
 * Replaces the whole response, so no session headers: the request it answers did not happen. The body kind is the
 * scenario's choice, so this is the one place a non-2xx MCP answer may carry something other than a JSON-RPC error.
 */
function statusResponse(status: number, kind: BodyKind, input: PerformInput, retryAfter?: number | string, extra: Record<string, string> = {}): Response {
  const h: Record<string, string> = { ...extra };
  if (retryAfter !== undefined) h["retry-after"] = String(retryAfter);
  const reason = `Injected HTTP ${status}`;
  switch (kind) {
    case "empty":
      return new Response(null, { status, headers: h });
    case "text":
      return new Response(reason, { status, headers: { ...h, "content-type": "text/plain; charset=utf-8" } });
    case "html":
      return new Response(HTML_PAGE.replaceAll("502 Bad Gateway", `${status} ${reason}`), {
        status,
        headers: { ...h, "content-type": "text/html; charset=utf-8" },
      });
    case "json":
      return jsonResponse(status, { error: reason }, h);
    case "jsonrpc":
      return jsonResponse(status, errorMessage(input.requestId, ErrorCode.InternalError, reason), h);
  }
}

/** Bad JSON goes where the message would have gone: the whole JSON body, or the data of one SSE event. */
function badJson(text: string, input: Pick<Answered, "stream">, headers: Record<string, string> | undefined): Response {
  return new Response(input.stream ? sseEvent(text) : text, { status: 200, headers: { ...(input.stream ? SSE_HEADERS : JSON_HEADERS), ...headers } });
}

async function malformed(variant: "invalid_json" | "truncated_json" | "wrong_content_type" | "html_page", input: PerformInput): Promise<Response> {
  switch (variant) {
    case "invalid_json":
      return badJson(`{"jsonrpc": "2.0", "id": ${JSON.stringify(input.requestId)}, "result": {content: [oops]}}`, input, input.headers);
    case "truncated_json":
      // An answer with no message (a notification's 202, an upstream's 204) has nothing to cut: it goes out as 202.
      return withAnswer(input, async (answered) => {
        const message = await answered.answer(undefined);
        if (!message) return accepted();
        const full = JSON.stringify(message);
        return badJson(full.slice(0, Math.max(1, Math.floor(full.length / 2))), answered, answered.headers);
      });
    case "wrong_content_type":
      return withAnswer(input, async (answered) => {
        const message = await answered.answer(undefined);
        if (!message) return accepted();
        return new Response(JSON.stringify(message), { status: 200, headers: { ...answered.headers, "content-type": "text/plain; charset=utf-8" } });
      });
    case "html_page":
      return new Response(HTML_PAGE, { status: 200, headers: { ...input.headers, "content-type": "text/html; charset=utf-8" } });
  }
}

function corruptEnvelope(variant: "wrong_id" | "result_and_error" | "no_jsonrpc" | "null_id", message: Message): Message {
  switch (variant) {
    case "wrong_id":
      return { ...message, id: typeof message.id === "number" ? message.id + 1000 : `${String(message.id)}-other` };
    case "result_and_error":
      return { ...message, result: message.result ?? {}, error: { code: ErrorCode.InternalError, message: "Both result and error" } };
    case "no_jsonrpc": {
      const { jsonrpc: _dropped, ...rest } = message;
      return rest;
    }
    case "null_id":
      return { ...message, id: null };
  }
}

/** Corrupts a result; an error response has none, so it is left alone. */
function corruptResult(variant: "content_not_array" | "unknown_result_type" | "missing_result_type", message: Message): Message {
  if (!message.result) return message;
  const result = message.result as Message;
  switch (variant) {
    case "content_not_array":
      return { ...message, result: { ...result, content: { type: "text", text: "content should be an array" } } };
    case "unknown_result_type":
      return { ...message, result: { ...result, resultType: "partial" } };
    case "missing_result_type": {
      const { resultType: _dropped, ...rest } = result;
      return { ...message, result: rest };
    }
  }
}
