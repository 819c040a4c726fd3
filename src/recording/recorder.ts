import type { Effects } from "../mcp/facts.ts";
import { headerRecord, redactHeaders, redactText, type RedactOptions } from "../journal/redact.ts";
import type { Handled } from "../mcp/facts.ts";
import { rpcOf } from "../mcp/facts.ts";
import { RECORDING_LIMITS, type RecordedEvent, type RecordedExchange } from "./exchange.ts";
import { matchKey, parseJson } from "./match.ts";

/** Where recorded exchanges go (RecordingStore). */
export interface RecordingSink {
  key(): Uint8Array;
  append(exchange: RecordedExchange): void;
}

/** One exchange to record, as a session (its own handler, or a proxied upstream) answered it. */
export interface ExchangeToRecord {
  /** Date.now() when the request arrived: event times count from it. */
  started: number;
  request: Request;
  /** The request body as received, before any redaction. */
  requestText: string;
  response: Response;
  /** tools/call: whether the tool ran, read once the response ended. */
  effects?: () => Effects;
}

/**
 * Records one exchange and returns the response to send in its place: the body is teed, so the client gets every
 * byte when it would have, and the recording copy notes when each SSE event went out. The match digest is taken
 * from the request as received; what is stored of the request is redacted like the journal. The response is kept as
 * sent, since a replay serves it. This is the call a proxied session makes for each upstream exchange.
 */
export function recordExchange(sink: RecordingSink, exchange: ExchangeToRecord, waitUntil: (promise: Promise<unknown>) => void, redact: RedactOptions = {}): Response {
  const { request, response, requestText, started } = exchange;
  const headersAtMs = Math.max(0, Date.now() - started);
  let body: ReadableStream<Uint8Array> | null = null;
  let copy: ReadableStream<Uint8Array> | null = null;
  if (response.body) [body, copy] = response.body.tee();
  const isSse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  const parsed = parseJson(requestText);
  const rpc = rpcOf(parsed);
  const match = request.method === "POST" ? matchKey(parsed, sink.key()) : undefined;
  waitUntil(
    (async () => {
      const read = await readTimed(copy, started, isSse);
      const effects = exchange.effects?.();
      sink.append({
        time: new Date(started).toISOString(),
        durationMs: Math.max(0, Date.now() - started),
        request: { method: request.method, headers: redactHeaders(headerRecord(request.headers), redact), body: capped(redactText(requestText, redact)) },
        response: {
          status: response.status,
          headers: headerRecord(response.headers),
          headersAtMs,
          body: { text: read.text, truncated: read.truncated },
          ...(isSse ? { events: read.events } : {}),
        },
        rpc: { kind: rpc.kind, ...(rpc.id !== undefined ? { id: rpc.id } : {}) },
        ...(match ? { match } : {}),
        ...(effects ? { effects } : {}),
      });
    })().catch((error) => console.error("recording failed", error)),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** recordExchange for an exchange the MCP pipeline handled: the same Handled, its response teed for the recording. */
export function recordHandled<Trace>(sink: RecordingSink, request: Request, handled: Handled<Trace>, started: number, waitUntil: (promise: Promise<unknown>) => void, redact?: RedactOptions): Handled<Trace> {
  const exchange = { started, request, requestText: handled.facts?.text ?? "", response: handled.response, ...(handled.effects ? { effects: handled.effects } : {}) };
  return { ...handled, response: recordExchange(sink, exchange, waitUntil, redact) };
}

function capped(text: string): { text: string; truncated: boolean } {
  return text.length > RECORDING_LIMITS.bodyBytes ? { text: text.slice(0, RECORDING_LIMITS.bodyBytes), truncated: true } : { text, truncated: false };
}

/** A blank line, which ends an SSE event (any of the three line ends). */
const EVENT_END = /\r\n\r\n|\n\n|\r\r/g;

/**
 * Reads a body to its end, keeping up to RECORDING_LIMITS.bodyBytes characters and, for SSE, where each event ends
 * and when it arrived. Never throws: a body that fails midway is kept as far as it went.
 */
async function readTimed(stream: ReadableStream<Uint8Array> | null, started: number, sse: boolean): Promise<{ text: string; truncated: boolean; events: RecordedEvent[] }> {
  const events: RecordedEvent[] = [];
  if (!stream) return { text: "", truncated: false, events };
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let truncated = false;
  // Where the search for the next event's end starts: a blank line split across chunks is found once both halves came.
  let scanned = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (truncated) continue;
      text += decoder.decode(value, { stream: true });
      if (text.length > RECORDING_LIMITS.bodyBytes) {
        text = text.slice(0, RECORDING_LIMITS.bodyBytes);
        truncated = true;
      }
      if (sse) scanned = eventEnds(text, scanned, Math.max(0, Date.now() - started), events);
    }
    if (!truncated) text += decoder.decode();
  } catch {
    // The stream broke: what arrived is what the client got.
  }
  if (sse && !truncated && scanned < text.length) events.push({ atMs: Math.max(0, Date.now() - started), end: text.length });
  return { text, truncated, events };
}

/** Notes every event that ended in `text` after `from`; returns where the next search starts. */
function eventEnds(text: string, from: number, atMs: number, events: RecordedEvent[]): number {
  EVENT_END.lastIndex = Math.max(0, from - 3);
  let next = from;
  for (let m = EVENT_END.exec(text); m; m = EVENT_END.exec(text)) {
    const end = m.index + m[0].length;
    if (end <= from) continue;
    events.push({ atMs, end });
    next = end;
  }
  return next;
}
