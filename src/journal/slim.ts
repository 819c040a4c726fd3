import { isRecord } from "../classify/index.ts";
import { type JournalEntry, TRUNCATION_MARKER } from "./entry.ts";
import { jsonDepth, MAX_JSON_DEPTH } from "../base/json-limits.ts";
import { callParams, canonical } from "../mcp/call-params.ts";
import { hmacHex } from "../base/digest.ts";
import { clientKey } from "./retry-origin.ts";
import { type ParsedBody, parseWhole } from "./redact.ts";

/**
 * The slim projection of a journal entry that the checks read: taken once, when the entry is stored, so /checks
 * never parses the full bodies again. Large request params and results are reduced to what a check reads (names,
 * protocol fields, tool annotations); the call digests stand in for the params when comparing two calls.
 */
export interface SlimEntry extends JournalEntry {
  /** Digest of the whole params less per-request _meta keys (invalid-params-fixed compares these). */
  paramsDigest?: string;
  /** clientInfo written canonically (the projection drops clientInfo itself): retry origins compare it. */
  client?: string;
}

/** Bodies up to this many characters are kept whole in the projection. */
const KEEP_WHOLE = 4096;
/** A reduced object keeps a member whose JSON is at most this long; longer ones become a size note. */
const KEEP_MEMBER = 512;

/** _meta keys that change from one request to the next without changing what is asked. */
const VOLATILE_META = ["progressToken", "traceparent", "tracestate", "baggage"];

/** The whole params, _meta included (a fix may be there), less the per-request _meta keys. */
export function comparableParams(params: Record<string, unknown>): string {
  const { _meta, ...rest } = params;
  if (!isRecord(_meta)) return canonical(rest);
  const meta = Object.fromEntries(Object.entries(_meta).filter(([k]) => !VOLATILE_META.includes(k)));
  return canonical({ ...rest, _meta: meta });
}

/** The object a body holds: from its parse when the pipeline made one, else from one parse here. */
function objectOf(text: string, parsed: ParsedBody | undefined): Record<string, unknown> | undefined {
  const json = parsed !== undefined ? parsed : parseWhole(text);
  return json !== null && isRecord(json.value) ? json.value : undefined;
}

/**
 * The digests of a request body's params, taken before redaction; none for a cut body or a non-request. `parsed` is
 * the body's parse when the pipeline made one.
 */
export function callDigests(body: JournalEntry["request"]["body"], key: Uint8Array, parsed?: ParsedBody): { callDigest?: string; paramsDigest?: string } {
  if (body.truncated) return {};
  const message = objectOf(body.text, parsed);
  if (!message || typeof message.method !== "string") return {};
  const params = isRecord(message.params) ? message.params : {};
  return { callDigest: hmacHex(key, canonical(callParams(params))), paramsDigest: hmacHex(key, comparableParams(params)) };
}

/** An object with its long members replaced by a note of their size; `keep` members are kept whole. */
function reduce(value: Record<string, unknown>, keep: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const text = JSON.stringify(v) ?? "";
    out[k] = keep.includes(k) || text.length <= KEEP_MEMBER ? v : `…(${text.length} characters, reduced for the checks)`;
  }
  return out;
}

/** A JSON-RPC message with what the checks read: method, id, protocol params, errors, result types and tool annotations. */
function reduceMessage(message: Record<string, unknown>): Record<string, unknown> {
  const out = reduce(message, ["jsonrpc", "id", "method", "error"]);
  if (isRecord(message.params)) {
    const params = reduce(message.params, ["name", "uri", "protocolVersion", "requestState"]);
    if (isRecord(message.params.inputResponses)) params.inputResponses = Object.fromEntries(Object.keys(message.params.inputResponses).map((k) => [k, "…"]));
    if (isRecord(message.params._meta)) params._meta = reduce(message.params._meta);
    out.params = params;
  }
  if (isRecord(message.result)) {
    const result = reduce(message.result, ["resultType", "isError", "inputRequests", "requestState"]);
    if (Array.isArray(message.result.tools)) {
      result.tools = message.result.tools.map((t) => (isRecord(t) ? { name: t.name, annotations: t.annotations } : t));
    }
    out.result = result;
  }
  return out;
}

/**
 * A body text as the checks need it: whole when short, else its JSON message reduced, else nothing. Nesting past
 * the limit (a request the door refused) is dropped, so nothing later walks it.
 */
function slimText(text: string, parsed: ParsedBody | undefined): string {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return "";
  if (text.length <= KEEP_WHOLE) return text;
  const message = objectOf(text, parsed);
  return message ? JSON.stringify(reduceMessage(message)) : "";
}

// last-event-id: the stream-recovery checks match a resuming GET to the stream it resumes. mcp-name: task-mcp-name-sent
// holds each tasks/* request's header to its params.taskId.
const KEPT_REQUEST_HEADERS = ["mcp-session-id", "mcp-protocol-version", "last-event-id", "mcp-name"];

/** The parses of an entry's bodies as stored (after redaction), when they were made already: see ParsedBody. */
export interface StoredParses {
  request?: ParsedBody;
  response?: ParsedBody;
  /** One per SSE event's data, in order. */
  events?: ParsedBody[];
}

/**
 * The projection of an entry (before or after redaction: it keeps no secret-named field it did not have). `parsed`
 * holds the parses of the entry's bodies as they stand in it, when the store made them already.
 */
export function slimEntry(entry: JournalEntry, paramsDigest: string | undefined, parsed: StoredParses = {}): SlimEntry {
  // Proxy mode: the upstream's own body stays in the full entry; the checks read its verdict and tool, not its bytes.
  const { clientInfo, proxied, ...rest } = entry;
  const client = clientKey(clientInfo);
  const headers = Object.fromEntries(KEPT_REQUEST_HEADERS.flatMap((h) => (entry.request.headers[h] !== undefined ? [[h, entry.request.headers[h]!]] : [])));
  const { sseEvents } = entry.response;
  return {
    ...rest,
    request: { ...entry.request, headers, body: { ...entry.request.body, text: entry.request.body.truncated ? "" : slimText(entry.request.body.text, parsed.request) } },
    response: {
      ...entry.response,
      body: { ...entry.response.body, text: sseEvents ? "" : entry.response.body.truncated ? "" : slimText(entry.response.body.text, parsed.response) },
      ...(sseEvents ? { sseEvents: sseEvents.map((e, i) => ({ ...e, data: e.data.endsWith(TRUNCATION_MARKER) ? TRUNCATION_MARKER : slimText(e.data, parsed.events?.[i]) })) } : {}),
    },
    ...(paramsDigest !== undefined ? { paramsDigest } : {}),
    ...(client !== undefined ? { client } : {}),
    ...(proxied ? { proxied: { ...proxied, ...(proxied.response ? { response: { ...proxied.response, body: undefined } } : {}) } } : {}),
  };
}
