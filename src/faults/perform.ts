import type { BodyKind, Fault } from "./schema.ts";
import type { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage, injectedErrorMessage, type RequestId } from "../wire/jsonrpc.ts";
import { withResultType, withServerInfo } from "../wire/result-shape.ts";
import { openStream, primingEvent, sseComment, sseEvent, SSE_HEADERS, type StreamWriter } from "../wire/sse.ts";
import type { Era } from "../wire/versions.ts";
import { JSON_HEADERS, jsonResponse } from "../wire/response.ts";
import { sleep } from "../base/sleep.ts";
import { resourceMetadataUrl } from "../wire/resource-metadata.ts";

type Message = Record<string, unknown>;

/**
 * Works out what the server would send: the JSON-RPC response, or undefined for a notification (202, no body).
 * `emit` writes notifications and server requests ahead of it when the answer goes on a stream.
 */
export type Answer = (emit: ((message: Message) => void) | undefined) => Promise<Message | undefined>;

export interface PerformInput {
  era: Era;
  /** The request's id; undefined for a notification. */
  requestId: RequestId | undefined;
  /** Answer on an SSE stream even without a fault that asks for one. */
  stream: boolean;
  /** Called only when the fault needs the answer: a fault that replaces the response never runs the handler. */
  answer: Answer;
  /** The HTTP status of a JSON answer, read after `answer` ran (an error such as -32021 travels with 400). */
  status?: () => number;
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
}

/** The one interpreter: turns a fault (or none) into the HTTP response. */
export async function perform(fault: Fault | undefined, input: PerformInput): Promise<Response> {
  const headers = input.headers ?? {};
  if (!fault) return deliver(input, headers);
  switch (fault.kind) {
    case "http_status":
      return statusResponse(fault.status, fault.body, input, fault.retryAfter);
    case "rate_limited":
      return statusResponse(429, fault.body, input, fault.retryAfter);
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
      return jsonResponse(404, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Session not found: the Mcp-Session-Id has expired"));
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
      return deliver({ ...input, answer: async () => ({ jsonrpc: "2.0", id: input.requestId, result }) }, headers);
    }
    case "respond_sse":
      return deliver({ ...input, stream: true }, headers);
    case "delay": {
      // A delay past the deadline ends in a response cut at the deadline, like any other.
      await sleep(Math.min(fault.ms, input.deadline.remainingMs()));
      if (input.deadline.remainingMs() > 0) return deliver(input, headers);
      input.deadline.cut = true;
      return new Response(null, { status: 200, headers: { ...(input.stream ? SSE_HEADERS : JSON_HEADERS), ...headers } });
    }
    case "stall_stream":
      return streamed(input, headers, async (out, emit) => {
        await out.write(sseComment("faultline stall begins"));
        await sleep(fault.ms);
        // Cut by the deadline meanwhile: the answer would go nowhere, so the handler does not run.
        return out.open ? input.answer(emit) : undefined;
      });
    case "hang":
      return streamed(input, headers, async (out) => {
        const until = Date.now() + fault.ms;
        while (out.open && Date.now() < until) {
          await out.write(sseComment("keep-alive"));
          await sleep(Math.min(fault.keepAliveMs, Math.max(0, until - Date.now())));
        }
        return undefined;
      });
    case "cut_stream":
      return streamed(input, headers, async (out, emit) => {
        const eventId = `${crypto.randomUUID()}-0`;
        const priming = fault.priming && input.era === "legacy";
        if (priming) await out.write(primingEvent(eventId, fault.retryMs));
        const message = await input.answer(emit);
        if (priming && message) input.keepForResume?.(eventId, message);
        return undefined;
      });
    case "drip": {
      const message = await input.answer(undefined);
      const [body, type] = input.stream ? [sseEvent(message), SSE_HEADERS] : [JSON.stringify(message), JSON_HEADERS];
      // Asks intermediaries not to buffer or compress; Cloudflare's edge may still gzip application/json for
      // clients that accept it, which can coalesce the chunks.
      const unbuffered = { "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
      return dripResponse(body, fault.chunkBytes, fault.intervalMs, { ...type, ...unbuffered, ...headers }, input);
    }
    case "malformed":
      return malformed(fault.variant, input, headers);
    case "envelope":
      return deliver({ ...input, answer: async (emit) => corrupted(await input.answer(emit), (m) => corruptEnvelope(fault.variant, m)) }, headers);
    case "bad_result":
      return deliver({ ...input, answer: async (emit) => corrupted(await input.answer(emit), (m) => corruptResult(fault.variant, m)) }, headers);
  }
}

const corrupted = (message: Message | undefined, corrupt: (m: Message) => Message) => message && corrupt(message);

/** Sends the answer as it is: one JSON body, or an SSE stream when the request asked for one. */
async function deliver(input: PerformInput, headers: Record<string, string>): Promise<Response> {
  if (!input.stream) {
    const message = await input.answer(undefined);
    return message ? jsonResponse(input.status?.() ?? 200, message, headers) : new Response(null, { status: 202 });
  }
  return streamed(input, headers, async (_out, emit) => input.answer(emit));
}

/**
 * Opens an SSE response at once and runs `body` behind it; whatever `body` returns is sent as the final event,
 * and `undefined` closes the stream without one.
 */
function streamed(
  input: PerformInput,
  headers: Record<string, string>,
  body: (out: StreamWriter, emit: (message: Message) => void) => Promise<Message | undefined>,
): Response {
  const readable = openStream({ waitUntil: input.waitUntil, deadline: input.deadline, sse: true }, async (out) => {
    try {
      const final = await body(out, out.send);
      if (final) await out.write(sseEvent(final));
    } catch (error) {
      await out.write(sseEvent(errorMessage(input.requestId, ErrorCode.InternalError, `Internal error: ${String(error)}`)));
    }
  });
  return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}

function dripResponse(body: string, chunkBytes: number, intervalMs: number, headers: Record<string, string>, input: PerformInput): Response {
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
function statusResponse(status: number, kind: BodyKind, input: PerformInput, retryAfter?: number | string): Response {
  const h: Record<string, string> = {};
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
function badJson(text: string, input: PerformInput, headers: Record<string, string>): Response {
  return new Response(input.stream ? sseEvent(text) : text, { status: 200, headers: { ...(input.stream ? SSE_HEADERS : JSON_HEADERS), ...headers } });
}

async function malformed(
  variant: "invalid_json" | "truncated_json" | "wrong_content_type" | "html_page",
  input: PerformInput,
  headers: Record<string, string>,
): Promise<Response> {
  switch (variant) {
    case "invalid_json":
      return badJson(`{"jsonrpc": "2.0", "id": ${JSON.stringify(input.requestId)}, "result": {content: [oops]}}`, input, headers);
    case "truncated_json": {
      const full = JSON.stringify(await input.answer(undefined));
      return badJson(full.slice(0, Math.max(1, Math.floor(full.length / 2))), input, headers);
    }
    case "wrong_content_type":
      return new Response(JSON.stringify(await input.answer(undefined)), {
        status: 200,
        headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
      });
    case "html_page":
      return new Response(HTML_PAGE, { status: 200, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
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
