import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { has, isBlank, isRecord, isRequestId, parseJson, show } from "./json.ts";
import type { RequestInfo } from "./request.ts";
import type { SseStream } from "./sse.ts";
import { isModern } from "./version.ts";
import type { ProtocolVersion } from "./verdict.ts";

/** What an SSE response stream carried, independent of the protocol version. */
export interface StreamAnalysis {
  sse: SseStream;
  /** Dispatched events whose data was not empty. */
  messages: number;
  notifications: number;
  progress: number;
  logs: number;
  serverRequests: { method: string; id: unknown }[];
  /** Responses whose id equals the expected id (or the first response's id when none is known). */
  matched: Record<string, unknown>[];
  /** Error responses with no id or a null id: the server could not read the request id. */
  idless: Record<string, unknown>[];
  /** Ids of responses that belong to some other request. */
  foreignIds: unknown[];
  malformed: string[];
  batches: number;
  notMessages: number;
  ignoredTypes: { type: string; response: boolean }[];
  priming: boolean;
  eventsAfterResponse: number;
  progressTokenMismatches: unknown[];
  /** True when the unterminated tail block held a response for the request. */
  unterminatedResponse: boolean;
}


function isResponseFor(message: unknown, expectedId: string | number | undefined): boolean {
  return isRecord(message) && typeof message.method !== "string" && (expectedId === undefined ? isRequestId(message.id) : message.id === expectedId);
}

export function analyzeStream(sse: SseStream, request: RequestInfo): StreamAnalysis {
  const a: StreamAnalysis = {
    sse,
    messages: 0,
    notifications: 0,
    progress: 0,
    logs: 0,
    serverRequests: [],
    matched: [],
    idless: [],
    foreignIds: [],
    malformed: [],
    batches: 0,
    notMessages: 0,
    ignoredTypes: [],
    priming: false,
    eventsAfterResponse: 0,
    progressTokenMismatches: [],
    unterminatedResponse: false,
  };
  let matchId: string | number | undefined = request.expectedId;

  for (const event of sse.events) {
    if (isBlank(event.data)) {
      // A priming event (1125): an event id with empty data, sent so the client can resume.
      if (event.id !== undefined) a.priming = true;
      continue;
    }
    if (a.matched.length > 0) a.eventsAfterResponse++;
    a.messages++;
    if (event.type !== "message") {
      const parsed = parseJson(event.data);
      a.ignoredTypes.push({ type: event.type, response: parsed.ok && isResponseFor(parsed.value, matchId) });
      continue;
    }
    const parsed = parseJson(event.data);
    if (!parsed.ok) {
      a.malformed.push(parsed.error);
      continue;
    }
    const message = parsed.value;
    if (Array.isArray(message)) {
      a.batches++;
      continue;
    }
    if (!isRecord(message)) {
      a.notMessages++;
      continue;
    }
    if (typeof message.method === "string") {
      noteServerMessage(message, request, a);
      continue;
    }
    const id = message.id;
    if (id === undefined || id === null) {
      if (has(message, "error")) a.idless.push(message);
      else a.notMessages++;
      continue;
    }
    if (matchId === undefined && isRequestId(id)) matchId = id;
    if (id === matchId) a.matched.push(message);
    else a.foreignIds.push(id);
  }

  const tail = sse.unterminated;
  if (tail !== undefined && tail.type === "message") {
    const parsed = parseJson(tail.data);
    a.unterminatedResponse = parsed.ok && isResponseFor(parsed.value, matchId);
  }
  return a;
}

function noteServerMessage(message: Record<string, unknown>, request: RequestInfo, a: StreamAnalysis): void {
  const method = message.method as string;
  if (has(message, "id")) {
    a.serverRequests.push({ method, id: message.id });
    return;
  }
  a.notifications++;
  if (method === "notifications/progress") {
    a.progress++;
    const token = isRecord(message.params) ? message.params.progressToken : undefined;
    if (request.progressToken !== undefined && token !== request.progressToken) a.progressTokenMismatches.push(token);
  } else if (method === "notifications/message") {
    a.logs++;
  }
}

/** Version-dependent findings about the stream as a whole. */
export function streamFindings(a: StreamAnalysis, version: ProtocolVersion, request: RequestInfo, findings: Findings): void {
  const modern = isModern(version);
  for (const req of a.serverRequests) {
    if (modern) {
      findings.error(
        "SSE_SERVER_REQUEST",
        `The stream carries a server-to-client request (${req.method}, id ${show(req.id)}); 2026-07-28 servers MUST NOT send JSON-RPC requests and use MRTR instead.`,
        SpecRef.s26Receiving,
      );
    } else {
      findings.info(
        "SSE_SERVER_REQUEST",
        `The stream carries a server-to-client request (${req.method}, id ${show(req.id)}); allowed in ${version}, the client answers it with a separate POST.`,
        SpecRef.s1125Sending,
      );
    }
  }
  for (const id of a.foreignIds.slice(0, 5)) {
    findings.error(
      "ID_MISMATCH",
      `The stream carries a response for id ${show(id)}, not for this request${request.expectedId === undefined ? "" : ` (id ${show(request.expectedId)})`}; a message MUST NOT go to another request's stream.`,
      modern ? SpecRef.s26Responses : SpecRef.s1125Sending,
    );
  }
  for (const error of a.malformed) {
    findings.error("SSE_DATA_NOT_JSON", `An SSE message event's data is not JSON (${error}).`);
  }
  if (a.batches > 0) findings.error("BATCH_NOT_ALLOWED", "An SSE event carries a JSON array; JSON-RPC batches are not allowed since 2025-06-18.");
  if (a.notMessages > 0) findings.error("SSE_DATA_NOT_A_MESSAGE", `${a.notMessages} SSE event(s) carry JSON that is not a JSON-RPC message.`);
  for (const ignored of a.ignoredTypes) {
    findings.warning(
      "SSE_EVENT_TYPE_IGNORED",
      `An event of type ${JSON.stringify(ignored.type)} was ignored${ignored.response ? " although it held the response" : ""}: clients (and the MCP SDKs) only read events without a type or of type "message".`,
      SpecRef.sse,
    );
  }
  if (a.progressTokenMismatches.length > 0) {
    findings.warning(
      "PROGRESS_UNRELATED",
      `${a.progressTokenMismatches.length} progress notification(s) do not carry the request's progressToken; notifications on a response stream MUST relate to the originating request.`,
      modern ? SpecRef.s26Receiving : SpecRef.s1125Sending,
    );
  }
  if (a.sse.invalidRetry.length > 0) {
    findings.warning("SSE_RETRY_INVALID", `The SSE retry field ${show(a.sse.invalidRetry[0])} is not an integer of milliseconds; ignored.`, SpecRef.sse);
  }
  if (modern && (a.sse.lastEventId !== undefined || a.sse.retryMs !== undefined)) {
    findings.info("SSE_RESUMPTION_FIELDS_2026", "The stream sets SSE id/retry fields; 2026-07-28 has no resumable streams, so they carry no meaning.", SpecRef.s26Receiving);
  }
  if (a.eventsAfterResponse > 0) {
    findings.info("SSE_EVENTS_AFTER_RESPONSE", `${a.eventsAfterResponse} event(s) follow the response; the final response SHOULD terminate the stream.`, modern ? SpecRef.s26Receiving : SpecRef.s1125Sending);
  }
  if (a.sse.unterminated !== undefined) {
    findings.warning(
      "SSE_UNTERMINATED_EVENT",
      `The stream ends inside an event (no blank line after it), so the event is not dispatched${a.unterminatedResponse ? "; it held the response, which the client never sees" : ""}.`,
      SpecRef.sse,
    );
  }
}

/** The events' shape for verdict details. */
export function streamDetails(a: StreamAnalysis): Record<string, unknown> {
  const details: Record<string, unknown> = {
    events: a.sse.events.length,
    messages: a.messages,
    notifications: a.notifications,
    progress: a.progress,
    logs: a.logs,
    serverRequests: a.serverRequests.length,
    comments: a.sse.comments,
  };
  if (a.sse.lastEventId !== undefined) details.lastEventId = a.sse.lastEventId;
  if (a.sse.retryMs !== undefined) details.retryMs = a.sse.retryMs;
  return details;
}

