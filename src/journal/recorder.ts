import { classify, parseSse } from "../classify/index.ts";
import type { Verdict } from "../classify/index.ts";
import type { Facts, Handled } from "../mcp/facts.ts";
import { capture, cut, type Relayed, relay, textCopy, utf8Length } from "./capture.ts";
import { bodyText } from "../wire/response.ts";
import type { JournalEntry, NewJournalEntry, ProxiedEntry, UpstreamSide } from "./entry.ts";
import { headerRecord, type ParsedBody, parseWhole, redactCapability, redactHeaders } from "./redact.ts";
import type { EntryParses } from "./store.ts";

export interface RecorderOptions {
  started: number;
  scenario: string;
  bodyCap: number;
  keepClientIp: boolean;
  clientInfoFor: (mcpSessionId: string) => Record<string, unknown> | undefined;
  /** Stores the entry; `parsed` holds its bodies' parses made already (JournalStore.append takes them). */
  record: (entry: NewJournalEntry, parsed: EntryParses) => JournalEntry;
  waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Runs a task once the response in hand has been released (the next turn), or sooner when the journal is read (see
   * WriteBehind.afterResponse). A body known whole is journalled so: its response does not wait for the journal.
   */
  afterResponse: (task: () => void) => void;
  /** Called once the exchange is journalled, or failed to be. */
  finished?: () => void;
}

/** After the response deadline, a body the client has not read to its end is ended by the relay (see relay). */
const DEADLINE_GRACE_MS = 1_000;

/**
 * Returns the response to send, and journals the exchange once the response body has been sent in full or the
 * client went away. A streamed body goes through a relay that the client's reading paces, so the client sees every
 * byte when it would have without the journal, and the journal keeps and judges only what the client was sent,
 * holding at most CLASSIFY_CAP characters of it however slowly the client reads.
 */
export function journalled(request: Request, handled: Handled<UpstreamSide>, options: RecorderOptions): Response {
  const response = handled.response;
  // A body made from a string (bodyText) is sent as it is and journalled from that string; only a streamed body is
  // relayed, so the journal reads what the client was sent, as it was sent.
  const known = bodyText(response);
  const copy = textCopy();
  const stopAt = handled.deadline ? handled.deadline.at + DEADLINE_GRACE_MS : undefined;
  const relayed = known === undefined && response.body ? relay(response.body, copy.add, stopAt) : undefined;

  const requestHeaders = headerRecord(request.headers, options.keepClientIp);
  const responseHeaders = headerRecord(response.headers);

  const exchange: Exchange = { request, handled, options, known, copy, requestHeaders, responseHeaders };
  /** Stores the entry once the response is out (`sent` for a relayed body, ended at `finished`); never throws. */
  const journal = (sent: Relayed | undefined, finished: number, upstream: UpstreamSide | undefined): void => {
    try {
      options.record(...entryOf(exchange, sent, finished, upstream));
    } catch (error) {
      console.error("journal failed", error);
    } finally {
      options.finished?.();
    }
  };
  // A body known whole, or none, ends the exchange as its response is handed on; a relayed one once it was sent.
  const answeredAt = relayed === undefined ? Date.now() : undefined;

  if (answeredAt !== undefined && !handled.proxied) {
    options.waitUntil(whenOut(options.afterResponse, () => journal(undefined, answeredAt, undefined)));
  } else {
    options.waitUntil(
      (async () => {
        const sent = relayed ? await relayed.ended : undefined;
        // The exchange ended when its body did (or when a client that went away left), not when the upstream's side
        // is complete: a fault's answer may be out long before the proxy's trace of it.
        const finished = sent?.clientClosedAt ?? answeredAt ?? Date.now();
        const upstream = handled.proxied ? await handled.proxied() : undefined;
        // A proxied body known whole waits for its response to be out, like any other known whole.
        if (relayed === undefined) return whenOut(options.afterResponse, () => journal(undefined, finished, upstream));
        journal(sent, finished, upstream);
      })().catch((error) => {
        // Neither the relay nor the upstream's side came: nothing to journal.
        console.error("journal failed", error);
        options.finished?.();
      }),
    );
  }

  return relayed ? new Response(relayed.stream, { status: response.status, statusText: response.statusText, headers: response.headers }) : response;
}

/**
 * Runs `task` once the response in hand is out (`afterResponse`, WriteBehind's), within that turn so that settle()
 * sees what it stored. The promise (for waitUntil) settles when it has run; what it throws rejects the promise
 * instead of reaching the turn, so one failed task never stops the others a settle() runs.
 */
export function whenOut(afterResponse: (task: () => void) => void, task: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    afterResponse(() => {
      try {
        task();
        resolve();
      } catch (error) {
        reject(error);
      }
    }),
  );
}

/** What the recorder holds of an exchange until it is journalled. */
interface Exchange {
  request: Request;
  handled: Handled<UpstreamSide>;
  options: RecorderOptions;
  /** The body when it was known whole; otherwise `copy` holds what the relay sent. */
  known: string | undefined;
  copy: ReturnType<typeof textCopy>;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
}

/** The journal entry of an exchange whose response is out, and the parses of its bodies made already. */
function entryOf(exchange: Exchange, sent: Relayed | undefined, finished: number, upstream: UpstreamSide | undefined): [NewJournalEntry, EntryParses] {
  const { request, handled, options, known, copy, requestHeaders, responseHeaders } = exchange;
  const response = handled.response;
  const facts = handled.facts;
  const requestText = facts?.text ?? "";
  const body = known !== undefined ? { text: known, bytes: utf8Length(known) } : { text: copy.text(), bytes: sent?.bytes ?? 0 };
  const isSse = (responseHeaders["content-type"] ?? "").includes("text/event-stream");
  const mcpSessionId = facts?.message?.request.mcpSessionId ?? response.headers.get("mcp-session-id") ?? requestHeaders["mcp-session-id"];
  const clientInfo = facts?.clientInfo ?? (mcpSessionId ? options.clientInfoFor(mcpSessionId) : undefined);
  const cutByDeadline = handled.deadline?.cut === true || sent?.stopped === true;
  // The one parse of a JSON answer: the classifier, the redaction and the checks' projection all take it.
  const parsed = isSse || body.text === "" || !copy.whole() ? null : parseWhole(body.text);
  const judged = { status: response.status, headers: responseHeaders, body: classifierBody(body.text, parsed, responseHeaders["content-type"]) };
  const verdict = judge(request.method, facts, requestHeaders, judged, finished);
  return [
    {
      time: new Date(options.started).toISOString(),
      durationMs: Math.max(0, finished - options.started),
      request: {
        method: request.method,
        url: redactCapability(new URL(request.url).pathname),
        // Headers and bodies are redacted by the store (JournalStore.append), after it took the call digests.
        headers: requestHeaders,
        body: capture(requestText, utf8Length(requestText), options.bodyCap),
      },
      response: {
        status: response.status,
        headers: responseHeaders,
        body: capture(body.text, body.bytes, options.bodyCap),
        ...(cutByDeadline ? { cutByDeadline } : {}),
        ...(sent?.clientClosedAt !== undefined ? { clientClosedAtMs: Math.max(0, sent.clientClosedAt - options.started) } : {}),
        ...(isSse
          ? {
              sseEvents: parseSse(body.text).events.map((e) => ({
                ...(e.id !== undefined ? { id: e.id } : {}),
                event: e.type,
                data: cut(e.data, options.bodyCap),
                ...(e.retry !== undefined ? { retry: e.retry } : {}),
              })),
            }
          : {}),
      },
      rpc: facts?.rpc ?? { kind: "invalid" },
      ...(facts?.era ? { era: facts.era, protocolVersion: facts.protocolVersion } : {}),
      ...(mcpSessionId ? { mcpSessionId } : {}),
      ...(clientInfo ? { clientInfo } : {}),
      ...(handled.decision
        ? { fault: { kind: handled.decision.fault.kind, rule: handled.decision.reason, detail: { ...handled.decision.fault } } }
        : {}),
      scenario: options.scenario,
      ...(verdict ? { verdict } : {}),
      ...(handled.effects ? { effects: handled.effects() } : {}),
      ...(upstream ? { proxied: proxiedEntry(upstream, facts, requestHeaders, options.bodyCap, finished) } : {}),
    },
    { ...(facts ? { request: requestParse(facts) } : {}), ...(isSse ? {} : { response: parsed }) },
  ];
}

/** The read stage's parse of the request body, as the store takes it (a body that is not JSON, or none, is null). */
function requestParse(facts: Facts): ParsedBody {
  return facts.text === "" || facts.body === undefined ? null : { value: facts.body };
}

/**
 * The response body as the classifier is given it: the parsed JSON when the answer is declared JSON (the classifier
 * would parse the same text to the same value), else the text, whose content type and syntax it judges itself. A
 * parsed string stays text: the classifier reads a string as the raw body.
 */
function classifierBody(text: string, parsed: ParsedBody, contentType: string | undefined): unknown {
  const type = contentType?.split(";")[0]!.trim().toLowerCase();
  const json = type === "application/json" || (type !== undefined && /^application\/[^/]+\+json$/.test(type));
  return json && parsed !== null && typeof parsed.value !== "string" ? parsed.value : text;
}

/**
 * Proxy mode: the upstream's side, its headers redacted like the client's, and its own body and verdict when a fault
 * changed what the client received.
 */
function proxiedEntry(
  side: UpstreamSide,
  facts: Facts | undefined,
  requestHeaders: Record<string, string>,
  bodyCap: number,
  now: number,
): ProxiedEntry {
  const { entry, body } = side;
  const response = entry.response;
  const verdict = response && body ? judge("POST", facts, requestHeaders, { status: response.status, headers: response.headers, body: body.text }, now) : undefined;
  return {
    ...entry,
    ...(entry.request ? { request: { headers: redactHeaders(entry.request.headers) } } : {}),
    ...(response ? { response: { ...response, headers: redactHeaders(response.headers), ...(body ? { body: capture(body.text, body.bytes, bodyCap) } : {}) } } : {}),
    ...(verdict ? { verdict } : {}),
  };
}

/**
 * The classifier's verdict on a POST, or on a GET that resumed a call's cut stream (src/mcp/pipeline.ts gives it the
 * call's facts): that stream is judged against the call's id and method, as the answer to the call. Other GETs and
 * DELETEs carry no request to judge an answer against.
 */
function judge(httpMethod: string, facts: Facts | undefined, headers: Record<string, string>, response: { status: number; headers: Record<string, string>; body: unknown }, now: number): Verdict | undefined {
  if (httpMethod === "POST") {
    // The parsed body goes when there is one, so the classifier does not parse it again (a parsed string would read
    // as raw text, so that one case goes as text).
    const body = facts?.body === undefined || typeof facts.body === "string" ? (facts?.text ?? "") : facts.body;
    return classify({ request: { headers, body }, response, ...(facts?.outputSchema ? { outputSchema: facts.outputSchema } : {}) }, { now });
  }
  const call = facts?.rpc;
  if (httpMethod !== "GET" || call?.kind !== "request" || call.method === undefined || (typeof call.id !== "string" && typeof call.id !== "number")) return undefined;
  return classify({ request: { headers }, response, expectedId: call.id, method: call.method, ...(facts?.protocolVersion ? { protocolVersion: facts.protocolVersion } : {}), ...(facts?.outputSchema ? { outputSchema: facts.outputSchema } : {}) }, { now });
}
