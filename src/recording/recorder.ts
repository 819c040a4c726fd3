import type { Effects } from "../mcp/facts.ts";
import { type Relayed, relay } from "../journal/capture.ts";
import { whenOut } from "../journal/recorder.ts";
import { bodyText } from "../wire/response.ts";
import { headerRecord, type ParsedBody, parseWhole, redactBody, redactHeaders, type RedactOptions } from "../journal/redact.ts";
import type { Handled } from "../mcp/facts.ts";
import { rpcOf } from "../mcp/facts.ts";
import { RECORDING_LIMITS, type RecordedEvent, type RecordedExchange } from "./exchange.ts";
import { matchKey } from "./match.ts";
import { EVENT_END } from "./rewrite.ts";

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
  /** The request body's parse, when the pipeline made one (see ParsedBody): then it is not parsed again. */
  requestBody?: ParsedBody;
  response: Response;
  /** tools/call: whether the tool ran, read once the response ended. */
  effects?: () => Effects;
}

/** How a recorder hands on its work: `waitUntil` keeps the object up for it; `afterResponse` runs a task once the response in hand is out (WriteBehind.afterResponse), sooner when the recording is read. */
export interface RecordingPace {
  waitUntil: (promise: Promise<unknown>) => void;
  afterResponse: (task: () => void) => void;
}

/**
 * Records one exchange and returns the response to send in its place: the body goes through a relay that the
 * client's reading paces (src/journal/capture.ts), so the client gets every byte when it would have, the recording
 * copy holds at most RECORDING_LIMITS.bodyBytes characters however slowly the client reads, and it notes when each
 * SSE event went out to the client. The match digest is taken from the request as received; what is stored of the
 * request is redacted like the journal. The response is kept as sent, since a replay serves it. This is the call a
 * proxied session makes for each upstream exchange.
 */
export function recordExchange(sink: RecordingSink, exchange: ExchangeToRecord, pace: RecordingPace, redact: RedactOptions = {}): Response {
  const { request, response, requestText, started } = exchange;
  const headersAtMs = Math.max(0, Date.now() - started);
  const isSse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  const copy = timedCopy(started, isSse);
  // A body made from a string (bodyText) is recorded from it; only a streamed body is relayed.
  const known = bodyText(response);
  if (known !== undefined) copy.addText(known);
  const relayed = known === undefined && response.body ? relay(response.body, copy.add) : undefined;
  const parsed = exchange.requestBody !== undefined ? exchange.requestBody : requestText === "" ? null : parseWhole(requestText);
  const message = parsed?.value;
  const rpc = rpcOf(message);
  const match = request.method === "POST" ? matchKey(message, sink.key()) : undefined;
  const store = (sent: Relayed | undefined): void => {
    const read = copy.finish();
    const effects = exchange.effects?.();
    sink.append({
      time: new Date(started).toISOString(),
      durationMs: Math.max(0, Date.now() - started),
      request: { method: request.method, headers: redactHeaders(headerRecord(request.headers), redact), body: capped(redactBody(requestText, redact, parsed).text) },
      response: {
        status: response.status,
        headers: headerRecord(response.headers),
        headersAtMs,
        body: { text: read.text, truncated: read.truncated },
        ...(isSse ? { events: read.events } : {}),
        ...(sent?.clientClosedAt !== undefined ? { clientClosedAtMs: Math.max(0, sent.clientClosedAt - started) } : {}),
      },
      rpc: { kind: rpc.kind, ...(rpc.id !== undefined ? { id: rpc.id } : {}) },
      ...(match ? { match } : {}),
      ...(effects ? { effects } : {}),
    });
  };
  const failed = (error: unknown) => console.error("recording failed", error);
  // Known whole (or no body): recorded once the response is out, within that turn, so a read of the recording sees it.
  pace.waitUntil((relayed ? relayed.ended.then(store) : whenOut(pace.afterResponse, () => store(undefined))).catch(failed));
  return relayed ? new Response(relayed.stream, { status: response.status, statusText: response.statusText, headers: response.headers }) : response;
}

/** recordExchange for an exchange the MCP pipeline handled: the same Handled, its response relayed for the recording. */
export function recordHandled<Trace>(sink: RecordingSink, request: Request, handled: Handled<Trace>, started: number, pace: RecordingPace, redact?: RedactOptions): Handled<Trace> {
  const facts = handled.facts;
  const exchange: ExchangeToRecord = {
    started,
    request,
    requestText: facts?.text ?? "",
    ...(facts ? { requestBody: facts.text === "" || facts.body === undefined ? null : { value: facts.body } } : {}),
    response: handled.response,
    ...(handled.effects ? { effects: handled.effects } : {}),
  };
  return { ...handled, response: recordExchange(sink, exchange, pace, redact) };
}

function capped(text: string): { text: string; truncated: boolean } {
  return text.length > RECORDING_LIMITS.bodyBytes ? { text: text.slice(0, RECORDING_LIMITS.bodyBytes), truncated: true } : { text, truncated: false };
}

/**
 * The recording's copy of a body as the client was sent it: up to RECORDING_LIMITS.bodyBytes characters and, for
 * SSE, where each event ends and when it went out. A body that failed midway is kept as far as it went.
 */
function timedCopy(started: number, sse: boolean) {
  const events: RecordedEvent[] = [];
  const decoder = new TextDecoder();
  let text = "";
  let truncated = false;
  // Where the search for the next event's end starts: a blank line split across chunks is found once both halves came.
  let scanned = 0;
  const copyText = (more: string): void => {
    if (truncated) return;
    text += more;
    if (text.length > RECORDING_LIMITS.bodyBytes) {
      text = text.slice(0, RECORDING_LIMITS.bodyBytes);
      truncated = true;
    }
    if (sse) scanned = eventEnds(text, scanned, Math.max(0, Date.now() - started), events);
  };
  return {
    add(chunk: Uint8Array): void {
      if (!truncated) copyText(decoder.decode(chunk, { stream: true }));
    },
    /** A body known whole, added as text. */
    addText(whole: string): void {
      copyText(whole);
    },
    finish(): { text: string; truncated: boolean; events: RecordedEvent[] } {
      if (!truncated) text += decoder.decode();
      if (sse && !truncated && scanned < text.length) events.push({ atMs: Math.max(0, Date.now() - started), end: text.length });
      return { text, truncated, events };
    },
  };
}

/** The blank line that ends an SSE event, as parseSse reads it (any of the three line ends, mixed). */
const BLANK_LINE = new RegExp(EVENT_END.source, "g");

/** Notes every event that ended in `text` after `from`; returns where the next search starts. */
function eventEnds(text: string, from: number, atMs: number, events: RecordedEvent[]): number {
  const blank = BLANK_LINE;
  blank.lastIndex = Math.max(0, from - 3);
  let next = from;
  for (let m = blank.exec(text); m; m = blank.exec(text)) {
    const end = m.index + m[0].length;
    if (end <= from) continue;
    events.push({ atMs, end });
    next = end;
  }
  return next;
}
