import type { BodyKind, Fault } from "./schema.ts";
import { SSE_HEADERS, primingEvent, sseEvent } from "../mcp/sse.ts";
import { ErrorCode, errorMessage, type RequestId } from "../mcp/jsonrpc.ts";
import { META, SERVER_INFO, type Era } from "../mcp/versions.ts";

type Message = Record<string, unknown>;

/** Produces the message the server would send; `emit` writes to the response stream when there is one. */
export type Produce = (emit: ((message: Message) => void) | undefined) => Promise<Message>;

export interface PerformInput {
  era: Era;
  requestId: RequestId;
  /** Answer on an SSE stream even without a fault that asks for one. */
  stream: boolean;
  produce: Produce;
  /** Extra response headers (e.g. Mcp-Session-Id). */
  headers?: Record<string, string>;
  /** The HTTP status of a JSON answer, read after `produce` ran (an error such as -32021 travels with 400). */
  status?: () => number;
  /** Keeps a cut stream's final message for a Last-Event-ID resumption (legacy). */
  keepForResume?: (eventId: string, message: Message) => void;
  /** Base URL used in WWW-Authenticate resource_metadata. */
  origin: string;
  /** Keeps the worker alive for work that continues after the response started. */
  waitUntil: (promise: Promise<unknown>) => void;
}

const JSON_HEADERS = { "content-type": "application/json" } as const;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The one interpreter: turns a fault (or none) into the HTTP response. */
export async function perform(fault: Fault | undefined, input: PerformInput): Promise<Response> {
  const headers = input.headers ?? {};
  if (!fault) return normal(input, headers);
  switch (fault.kind) {
    case "http_status":
      return statusResponse(fault.status, fault.body, input, fault.retryAfter);
    case "rate_limited":
      return statusResponse(429, fault.body, input, fault.retryAfter);
    case "unauthorized": {
      const params = [`resource_metadata="${input.origin}/.well-known/oauth-protected-resource"`];
      if (fault.error) params.unshift(`error="${fault.error}"`);
      if (fault.scope) params.push(`scope="${fault.scope}"`);
      return jsonResponse(401, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Unauthorized: a valid bearer token is required"), {
        "www-authenticate": `Bearer ${params.join(", ")}`,
      });
    }
    case "insufficient_scope":
      return jsonResponse(403, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Forbidden: insufficient scope"), {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${fault.scope}", resource_metadata="${input.origin}/.well-known/oauth-protected-resource", error_description="This call needs the ${fault.scope} scope"`,
      });
    case "session_expired":
      return jsonResponse(404, errorMessage(input.requestId, ErrorCode.InvalidRequest, "Session not found: the Mcp-Session-Id has expired"), {});
    case "unsupported_version": {
      // 2026-07-28 versioning: -32022 with HTTP 400. 2025-11-25 and 2025-06-18 lifecycle: initialize gets -32602
      // "Unsupported protocol version" with the same data; no status is named, so 200 like other JSON-RPC errors.
      const data = { supported: fault.supported, requested: fault.requested };
      return input.era === "modern"
        ? jsonResponse(400, errorMessage(input.requestId, ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", data), {})
        : jsonResponse(200, errorMessage(input.requestId, ErrorCode.InvalidParams, "Unsupported protocol version", data), {});
    }
    case "jsonrpc_error":
      return jsonResponse(fault.httpStatus, errorMessage(input.requestId, fault.code, fault.message, fault.data), {});
    case "tool_error":
      return normal(
        {
          ...input,
          produce: async () => ({
            jsonrpc: "2.0",
            id: input.requestId,
            result: withResultType(input.era, {
              content: [{ type: "text", text: fault.text }],
              isError: true,
              ...(input.era === "modern" ? { _meta: { [META.serverInfo]: SERVER_INFO } } : {}),
            }),
          }),
        },
        headers,
      );
    case "respond_sse":
      return normal({ ...input, stream: true }, headers);
    case "delay":
      await sleep(fault.ms);
      return normal(input, headers);
    case "stall_stream":
      return streamed(input, headers, async (write, emit) => {
        write(": faultline stall begins\n\n");
        await sleep(fault.ms);
        return input.produce(emit);
      });
    case "hang":
      return streamed(input, headers, async (write) => {
        const until = Date.now() + fault.ms;
        while (Date.now() < until) {
          write(": keep-alive\n\n");
          await sleep(Math.min(fault.keepAliveMs, Math.max(0, until - Date.now())));
        }
        return undefined;
      });
    case "cut_stream":
      return streamed(input, headers, async (write, emit) => {
        const eventId = `${crypto.randomUUID()}-0`;
        const priming = fault.priming && input.era === "legacy";
        if (priming) write(primingEvent(eventId, fault.retryMs));
        const message = await input.produce(emit);
        if (priming) input.keepForResume?.(eventId, message);
        return undefined;
      });
    case "drip": {
      const message = await input.produce(undefined);
      const [body, type] = input.stream ? [sseEvent(message), SSE_HEADERS] : [JSON.stringify(message), JSON_HEADERS];
      // Asks intermediaries not to buffer or compress; Cloudflare's edge may still gzip application/json for
      // clients that accept it, which can coalesce the chunks.
      const unbuffered = { "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
      return dripResponse(body, fault.chunkBytes, fault.intervalMs, { ...type, ...unbuffered, ...headers }, input.waitUntil);
    }
    case "malformed":
      return malformed(fault.variant, input, headers);
    case "envelope":
      return normal({ ...input, produce: async (emit) => corruptEnvelope(fault.variant, await input.produce(emit)) }, headers);
    case "bad_result":
      return normal({ ...input, produce: async (emit) => corruptResult(fault.variant, await input.produce(emit)) }, headers);
  }
}

/** Modern results carry resultType; legacy ones never do. */
export function withResultType(era: Era, result: Message): Message {
  return era === "modern" ? { resultType: "complete", ...result } : result;
}

/** One JSON body; used for every JSON answer of the MCP endpoint, faulted or not. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

async function normal(input: PerformInput, headers: Record<string, string>): Promise<Response> {
  if (!input.stream) {
    const message = await input.produce(undefined);
    return jsonResponse(input.status?.() ?? 200, message, headers);
  }
  return streamed(input, headers, async (_write, emit) => input.produce(emit));
}

/**
 * Opens an SSE response at once and runs `body` behind it; whatever `body` returns is sent as the final event,
 * and `undefined` closes the stream without one.
 */
function streamed(
  input: PerformInput,
  headers: Record<string, string>,
  body: (write: (chunk: string) => void, emit: (message: Message) => void) => Promise<Message | undefined>,
): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  const write = (chunk: string) => {
    if (open) writer.write(encoder.encode(chunk)).catch(() => (open = false));
  };
  const emit = (message: Message) => write(sseEvent(message));
  const done = (async () => {
    try {
      const final = await body(write, emit);
      if (final) write(sseEvent(final));
    } catch (error) {
      write(sseEvent(errorMessage(input.requestId, ErrorCode.InternalError, `Internal error: ${String(error)}`)));
    } finally {
      open = false;
      await writer.close().catch(() => undefined);
    }
  })();
  input.waitUntil(done);
  return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}

function dripResponse(
  body: string,
  chunkBytes: number,
  intervalMs: number,
  headers: Record<string, string>,
  waitUntil: (p: Promise<unknown>) => void,
): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const bytes = new TextEncoder().encode(body);
  waitUntil(
    (async () => {
      try {
        for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
          await writer.write(bytes.slice(offset, offset + chunkBytes));
          if (offset + chunkBytes < bytes.length) await sleep(intervalMs);
        }
      } finally {
        await writer.close().catch(() => undefined);
      }
    })().catch(() => undefined),
  );
  return new Response(readable, { status: 200, headers });
}

const HTML_PAGE =
  "<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>";

/** Replaces the whole response, so no session headers: the request it answers did not happen. */
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
      const full = JSON.stringify(await input.produce(undefined));
      return badJson(full.slice(0, Math.max(1, Math.floor(full.length / 2))), input, headers);
    }
    case "wrong_content_type":
      return new Response(JSON.stringify(await input.produce(undefined)), {
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
