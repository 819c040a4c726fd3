import { type HarEntry, HarSchema } from "../classify/index.ts";
import { TRUNCATION_MARKER } from "../journal/entry.ts";
import { REDACTED, redactBody, redactHeaders, type RedactOptions } from "../journal/redact.ts";
import { headerProblem } from "../base/header-safe.ts";
import type { Issue } from "../api-error.ts";
import { callParams, canonical } from "../mcp/call-params.ts";
import { rpcOf } from "../mcp/facts.ts";
import { isRecord } from "../wire/jsonrpc.ts";
import { RECORDING_LIMITS, type RecordedEvent, type RecordedExchange, type Recording } from "./exchange.ts";
import { keyBytes, matchKey, newRecordingKey, parseJson } from "./match.ts";

export { HarSchema };

/**
 * What a HAR gives a replay: its POSTs of JSON-RPC messages as a recording, the entries left out, with why, and the
 * first header of a replayed entry that could not be sent again (then the upload is refused: a replay would fail).
 */
export interface HarRecording {
  recording: Recording;
  skipped: { index: number; reason: string }[];
  badHeader?: Issue;
}

type HarHeader = { name: string; value: string };

/** HTTP/2 and HTTP/3 pseudo-headers (":status", ":authority") are not headers: a browser's HAR lists them, a replay drops them. */
const realHeaders = (headers: HarHeader[]) => headers.filter((h) => !h.name.startsWith(":"));
const pairs = (headers: HarHeader[]) => Object.fromEntries(realHeaders(headers).map((h) => [h.name.toLowerCase(), h.value]));

/** The first header of an entry that no Worker can send (a CR in a value, a space in a name), as a 400's issue. */
function badHeaderOf(entry: HarEntry, index: number): Issue | undefined {
  for (const side of ["request", "response"] as const) {
    const headers = entry[side].headers;
    for (const [i, h] of headers.entries()) {
      if (h.name.startsWith(":")) continue;
      const problem = headerProblem(h.name, h.value);
      if (problem) return { path: `log.entries[${index}].${side}.headers[${i}]`, rule: problem.rule, message: `entry ${index}, ${side} header ${i}: ${problem.message}` };
    }
  }
  return undefined;
}

/**
 * A HAR (Faultline's own export, or a browser's or proxy's) as a recording. Only POSTs whose body is a JSON-RPC
 * message can be replayed; the rest is reported in `skipped`. A HAR has no per-event timing: each answer, SSE
 * events included, is timed at the entry's total `time`. The recording is marked truncated when a body was cut
 * (Faultline's `_faultline.truncated`, or its visible marker) or when the part of a request the match digests was
 * redacted, since no real request could match it.
 */
export function harRecording(har: ReturnType<typeof HarSchema.parse>, redact: RedactOptions = {}): HarRecording {
  const key = newRecordingKey();
  const bytes = keyBytes(key);
  const exchanges: RecordedExchange[] = [];
  const skipped: HarRecording["skipped"] = [];
  let truncated: string | undefined;
  let badHeader: Issue | undefined;
  har.log.entries.forEach((entry, index) => {
    const text = entry.request.postData?.text;
    const method = (entry.request.method ?? "GET").toUpperCase();
    // A cut request is no JSON any more: it is refused as cut, not skipped as something else.
    if (method === "POST") truncated ??= cutReason(entry, index);
    const parsed = text === undefined ? undefined : parseJson(text);
    const match = method === "POST" ? matchKey(parsed, bytes) : undefined;
    // A browser writes status 0 for a request that got no response: there is nothing to replay.
    const answered = entry.response.status >= 200 && entry.response.status <= 599;
    if (match && !answered) {
      skipped.push({ index, reason: `no response was recorded (status ${entry.response.status})` });
      return;
    }
    if (!match || text === undefined) {
      skipped.push({ index, reason: method === "POST" ? "the request body is not a JSON-RPC request or notification" : `a ${method} is not replayed (only POSTs of JSON-RPC messages are)` });
      return;
    }
    badHeader ??= badHeaderOf(entry, index);
    const exchange = harExchange(entry, text, parsed, match, redact);
    truncated ??= tooLong(exchange, index) ?? redactedReason(parsed, index);
    exchanges.push(exchange);
  });
  if (exchanges.length > RECORDING_LIMITS.exchanges) truncated ??= `the HAR has ${exchanges.length} replayable entries; a recording holds at most ${RECORDING_LIMITS.exchanges}`;
  return { recording: { key, ...(truncated !== undefined ? { truncated } : {}), exchanges }, skipped, ...(badHeader ? { badHeader } : {}) };
}

/**
 * One replayed entry as stored. The request is redacted like the journal's (its headers: Authorization, Cookie,
 * API-key-like names and credential-like values; its body's secret fields), after the match digest was taken from
 * it; the entry's URL, query included, is not kept. The response is kept as recorded: the replay serves it.
 */
function harExchange(entry: HarEntry, text: string, parsed: unknown, match: RecordedExchange["match"], redact: RedactOptions): RecordedExchange {
  const content = entry.response.content;
  const body = content.encoding === "base64" && content.text !== undefined ? decodeBase64(content.text) : (content.text ?? "");
  const headers = pairs(entry.response.headers);
  const time = typeof entry.time === "number" && entry.time >= 0 ? Math.round(entry.time) : 0;
  const sse = (headers["content-type"] ?? content.mimeType ?? "").includes("text/event-stream");
  const rpc = rpcOf(parsed);
  return {
    time: typeof entry.startedDateTime === "string" ? entry.startedDateTime : new Date(0).toISOString(),
    durationMs: time,
    request: { method: "POST", headers: redactHeaders(pairs(entry.request.headers), redact), body: { text: redactBody(text, redact, { value: parsed }).text, truncated: false } },
    response: {
      status: entry.response.status,
      headers,
      headersAtMs: sse ? 0 : time,
      body: { text: body, truncated: false },
      ...(sse ? { events: [{ atMs: time, end: body.length } satisfies RecordedEvent] } : {}),
    },
    rpc: { kind: rpc.kind, ...(rpc.id !== undefined ? { id: rpc.id } : {}) },
    ...(match ? { match } : {}),
  };
}

function decodeBase64(text: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  } catch {
    return text;
  }
}

/** Why an entry's bodies cannot be replayed whole, when the journal cut them (its flag, or its visible marker). */
function cutReason(entry: HarEntry, index: number): string | undefined {
  const marked = isRecord(entry._faultline) && entry._faultline.truncated === true;
  const cut = [entry.request.postData?.text ?? "", entry.response.content.text ?? ""].some((t) => t.endsWith(TRUNCATION_MARKER));
  return marked || cut ? `entry ${index}: a body was cut at the journal's display cap (JOURNAL_BODY_CAP), so it cannot be replayed whole` : undefined;
}

function tooLong(exchange: RecordedExchange, index: number): string | undefined {
  const long = [exchange.request.body.text, exchange.response.body.text].some((t) => t.length > RECORDING_LIMITS.bodyBytes);
  return long ? `entry ${index}: a body is longer than the recording's limit of ${RECORDING_LIMITS.bodyBytes} characters` : undefined;
}

/** Why an entry cannot be matched, when the params the match digests were redacted (the journal's export redacts). */
function redactedReason(parsed: unknown, index: number): string | undefined {
  const params = isRecord(parsed) && isRecord(parsed.params) ? parsed.params : {};
  return canonical(callParams(params)).includes(REDACTED)
    ? `entry ${index}: the request's arguments were redacted (${REDACTED}), so no real request can match it`
    : undefined;
}
