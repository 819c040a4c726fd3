import { classify, parseSse } from "../../src/classify/index.ts";
import { capture } from "../../src/journal/capture.ts";
import { type JournalEntry, TRUNCATION_MARKER } from "../../src/journal/entry.ts";

/** The moment request 0 ms arrives in every hand-built journal. */
export const T0 = Date.parse("2026-08-01T10:00:00.000Z");
export const MODERN = "2026-07-28";

type Json = Record<string, unknown>;

export interface EntryInput {
  seq: number;
  /** When the request arrived, in ms after T0. */
  at: number;
  durationMs?: number;
  method?: string;
  /** JSON-RPC id; defaults to seq. */
  id?: string | number;
  notification?: boolean;
  params?: Json;
  /** Request headers besides content-type (and the modern version header, unless legacy). */
  headers?: Record<string, string>;
  legacy?: boolean;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** The response's JSON-RPC result, or error, or a raw body text. */
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
  body?: string;
  /** Answer on an SSE stream; with `cut`, the stream ends before the response event. */
  sse?: boolean;
  cut?: boolean;
  /** The journal's body cap for the request and the response (characters). */
  requestCap?: number;
  responseCap?: number;
  /** tools/call: whether the server ran the tool (absent, as in entries journalled before the field existed). */
  effects?: JournalEntry["effects"];
  /** The clientInfo the journal knows for the sender. */
  clientInfo?: Json;
  /** The fault the scenario injected, as the recorder journals it (its detail is the fault itself). */
  fault?: { kind: string } & Json;
  /** The client closed the stream this many ms after the request came (the body is what it had been sent). */
  clientClosedAtMs?: number;
  /** The server's response deadline ended the response. */
  cutByDeadline?: boolean;
}

/** A journal entry as the recorder would write it, verdict included (from the real classifier). */
export function entry(input: EntryInput): JournalEntry {
  const method = input.method ?? "tools/call";
  const id = input.id ?? input.seq;
  const legacy = input.legacy ?? false;
  const params = input.params ?? {};
  const requestText = JSON.stringify({ jsonrpc: "2.0", ...(input.notification ? {} : { id }), method, params });
  const requestHeaders = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(legacy ? {} : { "mcp-protocol-version": MODERN }),
    ...input.headers,
  };
  const status = input.status ?? (input.notification ? 202 : 200);
  const message = input.result ? { jsonrpc: "2.0", id, result: input.result } : input.error ? { jsonrpc: "2.0", id, error: input.error } : undefined;
  const data = message ? JSON.stringify(message) : undefined;
  const event = input.cut || data === undefined ? "" : `event: message\ndata: ${data}\n\n`;
  const responseText = input.body ?? (input.sse ? event : (data ?? ""));
  const responseHeaders = {
    ...(input.sse ? { "content-type": "text/event-stream" } : responseText === "" ? {} : { "content-type": "application/json" }),
    ...input.responseHeaders,
  };
  const durationMs = input.durationMs ?? 5;
  const start = T0 + input.at;
  const verdict = classify(
    { request: { headers: requestHeaders, body: requestText }, response: { status, headers: responseHeaders, body: responseText } },
    { now: start + durationMs },
  );
  const requestCap = input.requestCap ?? 64 * 1024;
  const responseCap = input.responseCap ?? 64 * 1024;
  const sessionId = requestHeaders["mcp-session-id" as keyof typeof requestHeaders] ?? responseHeaders["mcp-session-id" as keyof typeof responseHeaders];
  return {
    seq: input.seq,
    time: new Date(start).toISOString(),
    durationMs,
    request: { method: "POST", url: "/s/test/mcp", headers: requestHeaders, body: capture(requestText, requestText.length, requestCap) },
    response: {
      status,
      headers: responseHeaders,
      body: capture(responseText, responseText.length, responseCap),
      ...(input.sse
        ? {
          sseEvents: parseSse(responseText).events.map((e) => ({
            event: e.type,
            data: e.data.length > responseCap ? e.data.slice(0, responseCap) + TRUNCATION_MARKER : e.data,
          })),
        }
        : {}),
      ...(input.cutByDeadline ? { cutByDeadline: true as const } : {}),
      ...(input.clientClosedAtMs !== undefined ? { clientClosedAtMs: input.clientClosedAtMs } : {}),
    },
    rpc: {
      ...(input.notification ? {} : { id }),
      method,
      kind: input.notification ? "notification" : "request",
      ...(method === "tools/call" && typeof params.name === "string" ? { toolName: params.name } : {}),
    },
    era: legacy ? "legacy" : "modern",
    protocolVersion: legacy ? "2025-11-25" : MODERN,
    ...(sessionId !== undefined ? { mcpSessionId: sessionId } : {}),
    ...(input.clientInfo ? { clientInfo: input.clientInfo } : {}),
    ...(input.fault ? { fault: { kind: input.fault.kind, rule: "test", detail: input.fault } } : {}),
    scenario: "test",
    verdict,
    ...(input.effects ? { effects: input.effects } : {}),
  };
}

export const OK_RESULT = { resultType: "complete", content: [{ type: "text", text: "ok" }] };

/** A tools/call of `tool` with `args`, answered as `rest` says (a text result by default). */
export function call(seq: number, at: number, tool: string, args: Json, rest: Partial<EntryInput> = {}): JournalEntry {
  const answered = rest.status !== undefined || rest.error !== undefined || rest.result !== undefined || rest.body !== undefined || rest.sse;
  return entry({ seq, at, ...(answered ? {} : { result: OK_RESULT }), ...rest, params: { name: tool, arguments: args, ...rest.params } });
}

/** A legacy initialize asking for `version`; answered with a result and `newSessionId`, or with `error`. */
export function initialize(
  seq: number,
  at: number,
  options: { version?: string; headers?: Record<string, string>; newSessionId?: string; error?: EntryInput["error"] } = {},
): JournalEntry {
  const version = options.version ?? "2025-11-25";
  const answer = options.error ? { error: options.error } : {
    result: { protocolVersion: version, capabilities: {}, serverInfo: { name: "faultline", version: "0" } },
    ...(options.newSessionId ? { responseHeaders: { "mcp-session-id": options.newSessionId } } : {}),
  };
  return entry({
    seq,
    at,
    method: "initialize",
    legacy: true,
    headers: options.headers ?? {},
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    ...answer,
  });
}

/** The Mcp-Session-Id of the legacy calls below. */
export const SESSION = { "mcp-session-id": "abc123" };

/** A legacy tools/call (JSON-RPC id 1) whose SSE stream sends `events` (raw SSE text) and ends without the response. */
export function cutCall(seq: number, at: number, tool: string, events: string, args: Json = { text: "hi" }, rest: Partial<EntryInput> = {}): JournalEntry {
  const x = call(seq, at, tool, args, { legacy: true, sse: true, cut: true, body: events, headers: SESSION, id: 1, ...rest });
  // The recorder keeps each event's id and retry (entry() leaves them out).
  x.response.sseEvents = parseSse(events).events.map((e) => ({ ...(e.id ? { id: e.id } : {}), data: e.data, ...(e.retry !== undefined ? { retry: e.retry } : {}) }));
  return x;
}

/**
 * A GET with Last-Event-ID, journalled as the recorder does for a resumed call (src/mcp/pipeline.ts gives it the call's
 * method and id; src/journal/recorder.ts its verdict); not delivered, it is the 405 of a GET that resumed nothing.
 */
export function resumeGet(seq: number, at: number, lastEventId: string, delivered = true, answers: { tool?: string; result?: Json } = {}): JournalEntry {
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, result: answers.result ?? OK_RESULT });
  const text = delivered ? `id: ${lastEventId}-resumed\nevent: message\ndata: ${message}\n\n` : "";
  const headers = { accept: "text/event-stream", "last-event-id": lastEventId, ...SESSION };
  const response = { status: delivered ? 200 : 405, headers: { "content-type": delivered ? "text/event-stream" : "application/json" }, body: text };
  return {
    seq,
    time: new Date(T0 + at).toISOString(),
    durationMs: 3,
    request: { method: "GET", url: "/s/test/mcp", headers, body: { text: "", bytes: 0, truncated: false } },
    response: {
      ...response,
      body: { text, bytes: text.length, truncated: false },
      ...(delivered ? { sseEvents: [{ id: `${lastEventId}-resumed`, event: "message", data: message }] } : {}),
    },
    rpc: delivered ? { id: 1, method: "tools/call", kind: "request", toolName: answers.tool ?? "echo" } : { kind: "invalid" },
    scenario: "test",
    ...(delivered ? { verdict: classify({ request: { headers }, response, expectedId: 1, method: "tools/call" }, { now: T0 + at + 3 }) } : {}),
  };
}
