import type { BadResultVariant, BodyKind, Fault } from "./schema.ts";
import type { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage, injectedErrorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { withResultType, withServerInfo } from "../wire/result-shape.ts";
import { openStream, primingEvent, sseComment, sseEvent, SSE_HEADERS, type StreamWriter } from "../wire/sse.ts";
import type { Era } from "../wire/versions.ts";
import { JSON_HEADERS, jsonResponse, textResponse } from "../wire/response.ts";
import { sleep } from "../base/sleep.ts";
import { resourceMetadataUrl } from "../wire/resource-metadata.ts";
import { sessionExpiredResponse } from "./session-expired.ts";
import { intermediaryPageResponse } from "./intermediary-pages.ts";
import { listenStreamResponse } from "./listen-stream.ts";
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
      return delayed(fault.ms, input);
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
    case "idle_cut":
    case "buffered":
      return intermediary(fault, input);
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
    case "listen_stream":
      return listenStreamResponse(fault, input);
    case "malformed":
      return malformed(fault.variant, input);
    case "envelope":
      return withAnswer(input, (answered) => deliver({ ...answered, answer: async (emit) => corrupted(await answered.answer(emit), (m) => corruptEnvelope(fault.variant, m)) }));
    case "bad_result":
      return withAnswer(input, (answered) => deliver({ ...answered, answer: async (emit) => corrupted(await answered.answer(emit), (m) => corruptResult(fault.variant, m)) }));
    case "oversized":
      return withAnswer(input, (answered) => deliver({ ...answered, answer: async (emit) => corrupted(await answered.answer(emit), (m) => enlarge(fault, m)) }));
  }
}

/**
 * A `delay` fault. The source is asked first and its answer held back: an upstream has answered (its effect done)
 * before the wait, while the built-in handler, which runs when the answer is read, runs after it. A delay past the
 * deadline ends in a response cut at the deadline, like any other.
 */
function delayed(ms: number, input: PerformInput): Promise<Response> {
  return withAnswer(input, async (answered) => {
    await sleep(Math.min(ms, input.deadline.remainingMs()));
    if (input.deadline.remainingMs() > 0) return deliver(answered);
    input.deadline.cut = true;
    return new Response(null, { status: 200, headers: { ...(answered.stream ? SSE_HEADERS : JSON_HEADERS), ...answered.headers } });
  });
}

/** The faults of an intermediary in front of the server: an idle cut, or a stream's headers or events held back. */
function intermediary(fault: Extract<Fault, { kind: "idle_cut" | "buffered" }>, input: PerformInput): Promise<Response> {
  if (fault.kind === "idle_cut") return idleCut(fault, input);
  return fault.hold === "headers" ? headersWithheld(fault, input) : withAnswer(input, (answered) => eventsHeld(fault, input.progressToken, answered));
}

/**
 * An `idle_cut` fault: an intermediary (a CDN edge, a reverse proxy, a load balancer) waits at most `ms` for the server
 * behind it, which is silent for `workMs` (or its own time, when longer) before its answer. The server is asked at
 * once, so its handler runs (or the upstream is called) whatever the intermediary then does: an answer within the
 * window goes out as it is; past it the client gets the intermediary's error page and the server's answer goes
 * nowhere. A window past the response deadline ends at the deadline, like any other response.
 */
async function idleCut(fault: Extract<Fault, { kind: "idle_cut" }>, input: PerformInput): Promise<Response> {
  const started = Date.now();
  const ready = (async () => {
    const answered = await ask(input);
    return answered instanceof Response ? answered : { answered, message: await answered.answer(undefined) };
  })();
  const behind = ready.then(async (r) => {
    await sleep(Math.max(0, fault.workMs - (Date.now() - started)));
    return r;
  });
  const idle = sleep(Math.min(fault.ms, input.deadline.remainingMs())).then(() => undefined);
  const first = await Promise.race([behind, idle]);
  if (first instanceof Response) return first;
  if (first) return first.message ? deliver({ ...first.answered, answer: async () => first.message }) : accepted();
  // The server behind goes on (its effects happen all the same); the client hears only from the intermediary.
  input.waitUntil(ready.catch(() => undefined));
  if (input.deadline.remainingMs() > 0) return intermediaryPageResponse(fault.page, fault.status);
  input.deadline.cut = true;
  return new Response(null, { status: 200, headers: { ...(input.stream ? SSE_HEADERS : JSON_HEADERS), ...input.headers } });
}

/**
 * A `buffered` fault holding the headers: the server behind is asked at once and sends its first byte (its answer, on
 * an SSE stream) after `ms`; the intermediary sends the status line and headers only with that byte, so the client
 * hears nothing at all until then. A hold past the response deadline ends at the deadline.
 */
async function headersWithheld(fault: Extract<Fault, { kind: "buffered" }>, input: PerformInput): Promise<Response> {
  const ready = (async () => {
    const answered = await ask(input);
    return answered instanceof Response ? answered : { answered, message: await answered.answer(undefined) };
  })();
  input.waitUntil(ready.catch(() => undefined));
  await sleep(Math.min(fault.ms, input.deadline.remainingMs()));
  if (input.deadline.remainingMs() <= 0) {
    input.deadline.cut = true;
    return new Response(null, { status: 200, headers: { ...SSE_HEADERS, ...input.headers } });
  }
  const first = await ready;
  if (first instanceof Response) return first;
  return first.message ? deliver({ ...first.answered, stream: true, answer: async () => first.message }) : accepted();
}

/** What an intermediary holds of a stream before it flushes anyway (its buffers full), so a held stream stays bounded. */
export const HELD_MAX_BYTES = 256 * 1024;

/**
 * A `buffered` fault holding the events (nginx's proxy_buffering on an SSE response without X-Accel-Buffering: no):
 * the headers go out at once; the server behind runs `ms` with a notifications/progress every `intervalMs` (an SSE
 * comment when the request has no progressToken), then answers; every event, its own notifications and the answer
 * reach the client together at the end, in one write. Past HELD_MAX_BYTES the held bytes are flushed, as a proxy
 * whose buffers are full sends what it holds.
 */
function eventsHeld(fault: Extract<Fault, { kind: "buffered" }>, token: string | number | undefined, answered: Answered): Response {
  return streamed(answered, async (out) => {
    let held = "";
    const hold = async (chunk: string): Promise<boolean> => {
      held += chunk;
      if (held.length >= HELD_MAX_BYTES) {
        await out.write(held);
        held = "";
      }
      return out.open;
    };
    const until = Date.now() + fault.ms;
    const total = Math.max(1, Math.ceil(fault.ms / fault.intervalMs));
    for (let tick = 1; out.open && Date.now() < until; tick++) {
      const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: tick, total, message: `working (${tick} of ${total})` } };
      await hold(token === undefined ? sseComment("faultline: still working") : sseEvent(progress));
      await sleep(Math.min(fault.intervalMs, Math.max(0, until - Date.now())));
    }
    // Left by the client or cut by the deadline meanwhile: the answer would go nowhere, so the handler does not run.
    const final = out.open ? await answered.answer((message) => hold(sseEvent(message))) : undefined;
    await out.write(held + (final ? sseEvent(final) : ""));
    return undefined;
  });
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
      return textResponse(reason, { status, headers: { ...h, "content-type": "text/plain; charset=utf-8" } });
    case "html":
      return textResponse(HTML_PAGE.replaceAll("502 Bad Gateway", `${status} ${reason}`), {
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
  return textResponse(input.stream ? sseEvent(text) : text, { status: 200, headers: { ...(input.stream ? SSE_HEADERS : JSON_HEADERS), ...headers } });
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
        return textResponse(JSON.stringify(message), { status: 200, headers: { ...answered.headers, "content-type": "text/plain; charset=utf-8" } });
      });
    case "html_page":
      return textResponse(HTML_PAGE, { status: 200, headers: { ...input.headers, "content-type": "text/html; charset=utf-8" } });
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
function corruptResult(variant: BadResultVariant, message: Message): Message {
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
    case "structured_mismatch":
      return { ...message, result: { ...result, structuredContent: MISMATCHED_STRUCTURE } };
    case "structured_missing": {
      const { structuredContent: _dropped, ...rest } = result;
      return { ...message, result: rest };
    }
    case "error_with_structured":
      return { ...message, result: { ...result, content: [{ type: "text", text: ERROR_WITH_STRUCTURE.error.message }], structuredContent: ERROR_WITH_STRUCTURE, isError: true } };
  }
}

/**
 * An `oversized` fault: the tool's own content stays first, and the blocks that make the result large follow it. An
 * error response has no result and is left alone.
 */
function enlarge(fault: Extract<Fault, { kind: "oversized" }>, message: Message): Message {
  if (!message.result) return message;
  const result = message.result as Message;
  const own = Array.isArray(result.content) ? result.content : [];
  const added =
    fault.variant === "text_mb"
      ? [{ type: "text", text: filler(fault.bytes) }]
      : fault.variant === "large_image"
        ? [{ type: "image", mimeType: "image/png", data: pngData(fault.bytes) }]
        : Array.from({ length: Math.max(0, fault.blocks - own.length) }, (_, i) => ({ type: "text", text: `block ${own.length + i + 1} of ${fault.blocks} (injected by Faultline)` }));
  return { ...message, result: { ...result, content: [...own, ...added] } };
}

/** `bytes` characters of readable text. */
function filler(bytes: number): string {
  const line = "Faultline oversized result: this text only makes the answer large.\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** Base64 of `bytes` characters (a multiple of 4, rounded down) that starts with the PNG signature, then zeros. */
function pngData(bytes: number): string {
  const signature = "iVBORw0KGgo"; // base64 of the 8-byte PNG signature, less its padding
  const length = bytes - (bytes % 4);
  return (signature + "A".repeat(Math.max(0, length - signature.length - 1)) + "=").slice(0, length);
}

/** structuredContent with none of a tool's declared properties and one it never has: it conforms to no outputSchema that requires a property or forbids extra ones. */
const MISMATCHED_STRUCTURE = { faultline: "structuredContent that does not match the tool's outputSchema (injected by Faultline)" };
/** The error object a server puts in structuredContent beside isError: true, in place of the tool's declared output. */
const ERROR_WITH_STRUCTURE = { error: { code: "UPSTREAM_UNAVAILABLE", message: "The tool failed after it ran: the upstream did not confirm (injected by Faultline)." } };
