import { isRecord, OUTCOMES, show } from "../classify/index.ts";
import { type JournalEntry, TRUNCATION_MARKER } from "../journal/entry.ts";
import { callParams, canonical } from "../mcp/call-params.ts";
import type { RetrySeen } from "./check.ts";
import { clientKey, ORIGIN_READING, type RetryOrigin, retryOrigin } from "../journal/retry-origin.ts";
import { comparableParams, type SlimEntry } from "../journal/slim.ts";

type Json = Record<string, unknown>;

/** What the server answered to one request, as far as the journal lets us read it. */
export interface Reply {
  /** The JSON-RPC response to this request (from the JSON body, or the SSE event that carries it). */
  message?: Json;
  /** The body (or the event that should hold the response) was cut by the journal's cap. */
  truncated: boolean;
}

/** One journalled exchange, parsed once for every check. */
export interface Exchange {
  /** The entry, or the slim projection of it that the store keeps for the checks. */
  entry: SlimEntry;
  /** Position in the timeline (arrival order). */
  index: number;
  seq: number;
  /** When the request arrived, ms since the epoch. */
  start: number;
  /** When the response body ended, ms since the epoch. */
  end: number;
  httpMethod: string;
  status: number;
  /** JSON-RPC method (kept by the recorder even when the body was truncated). */
  method?: string;
  id?: string | number | null;
  /** A JSON-RPC request: it has a method and an id. */
  isRequest: boolean;
  /** The request's params; undefined when the body could not be read (e.g. the journal's cap cut it). */
  params?: Json;
  /** What identifies the call (digest taken before redaction, else the canonical params); undefined without params. */
  callKey?: string;
  /** The whole params less per-request _meta keys, likewise. */
  paramsKey?: string;
  /** Mcp-Session-Id sent with the request. */
  sessionId?: string;
  reply: Reply;
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readReply(entry: JournalEntry): Reply {
  const { body, sseEvents } = entry.response;
  if (sseEvents === undefined) {
    if (body.truncated) return { truncated: true };
    const message = parseObject(body.text);
    return message ? { message, truncated: false } : { truncated: false };
  }
  const id = entry.rpc.id;
  let truncated = body.truncated;
  for (const event of sseEvents) {
    if (event.data.endsWith(TRUNCATION_MARKER)) truncated = true;
    const message = parseObject(event.data);
    if (message && message.id === id && ("result" in message || "error" in message)) return { message, truncated: false };
  }
  return { truncated };
}

function toExchange(entry: SlimEntry, index: number): Exchange {
  const start = Date.parse(entry.time);
  const message = entry.request.body.truncated ? undefined : parseObject(entry.request.body.text);
  const params = message ? (isRecord(message.params) ? message.params : {}) : undefined;
  const sessionId = entry.request.headers["mcp-session-id"];
  return {
    entry,
    index,
    seq: entry.seq,
    start,
    end: start + entry.durationMs,
    httpMethod: entry.request.method,
    status: entry.response.status,
    ...(entry.rpc.method !== undefined ? { method: entry.rpc.method } : {}),
    ...(entry.rpc.id !== undefined ? { id: entry.rpc.id } : {}),
    isRequest: entry.request.method === "POST" && entry.rpc.kind === "request",
    ...(params ? { params, callKey: entry.callDigest ?? canonical(callParams(params)), paramsKey: entry.paramsDigest ?? comparableParams(params) } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
    reply: readReply(entry),
  };
}

/** The exchanges in the order their requests arrived (the journal's seq is the order they finished). */
export function timeline(entries: readonly SlimEntry[]): Exchange[] {
  const sorted = entries.map((e) => toExchange(e, 0)).sort((a, b) => a.start - b.start || a.seq - b.seq);
  sorted.forEach((x, i) => (x.index = i));
  return sorted;
}

/** The JSON-RPC error of the reply, when it has one with an integer code. */
export function rpcError(x: Exchange): { code: number; message: string; data?: unknown } | undefined {
  const error = x.reply.message?.error;
  if (!isRecord(error) || typeof error.code !== "number") return undefined;
  return { code: error.code, message: typeof error.message === "string" ? error.message : "", ...("data" in error ? { data: error.data } : {}) };
}

/** The JSON-RPC error code: from the reply, else the classifier's (which read the whole body even when the journal cut it). */
export function errorCode(x: Exchange): number | undefined {
  return rpcError(x)?.code ?? x.entry.verdict?.code;
}

export function resultOf(x: Exchange): Json | undefined {
  const result = x.reply.message?.result;
  return isRecord(result) ? result : undefined;
}

/** What a request acts on: the tool or prompt name, or the resource URI. */
export function targetOf(x: Exchange): string | undefined {
  const target = x.params?.name ?? x.params?.uri;
  return typeof target === "string" ? target : x.entry.rpc.toolName;
}

/** "tools/call place_order", or the bare method. */
export function label(x: Exchange): string {
  const target = targetOf(x);
  return target === undefined ? (x.method ?? `${x.httpMethod} request`) : `${x.method} ${target}`;
}

/** The protocol version a request asks for: initialize's params, else _meta, else the MCP-Protocol-Version header. */
export function requestedVersion(x: Exchange): string | undefined {
  if (x.method === "initialize" && typeof x.params?.protocolVersion === "string") return x.params.protocolVersion;
  const meta = x.params?._meta;
  const inMeta = isRecord(meta) ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
  return typeof inMeta === "string" ? inMeta : x.entry.request.headers["mcp-protocol-version"];
}

/** Same JSON-RPC method and same params (ignoring _meta, inputResponses and requestState). Needs both bodies. */
export function sameCall(a: Exchange, b: Exchange): boolean {
  return a.method === b.method && a.callKey !== undefined && a.callKey === b.callKey;
}

/** A short rendering of a call's arguments for messages. */
export function showArgs(x: Exchange): string {
  const params = x.params ? callParams(x.params) : undefined;
  if (params === undefined) return "(unreadable)";
  return show(x.method === "tools/call" ? (params.arguments ?? {}) : params, 120);
}

/**
 * For every exchange, the first later one (in arrival order) with the same key; exchanges without a key match
 * nothing. One pass over the timeline, so finding every "next" costs O(n), not O(n²).
 */
export function nextByKey(all: readonly Exchange[], key: (x: Exchange) => string | undefined): (x: Exchange) => Exchange | undefined {
  const next = new Map<Exchange, Exchange>();
  const later = new Map<string, Exchange>();
  for (let i = all.length - 1; i >= 0; i--) {
    const x = all[i]!;
    const k = key(x);
    if (k === undefined) continue;
    const found = later.get(k);
    if (found) next.set(x, found);
    later.set(k, x);
  }
  return (x) => next.get(x);
}

/** Exchanges grouped by a key in one pass, each group in arrival order; exchanges without a key are left out. */
export function groupBy(all: readonly Exchange[], key: (x: Exchange) => string | undefined): Map<string, Exchange[]> {
  const groups = new Map<string, Exchange[]>();
  for (const x of all) {
    const k = key(x);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(x);
    else groups.set(k, [x]);
  }
  return groups;
}

/**
 * The position in `list` (ascending by `by`) of its first exchange whose `by` is at least `value`: list.length when
 * there is none. A binary search, so a lookup in a group costs O(log n), however many exchanges look.
 */
export function firstFrom(list: readonly Exchange[], value: number, by: "index" | "start" = "index"): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]![by] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cancelKey = (sessionId: string | undefined, requestId: unknown): string => `${sessionId}\u0000${JSON.stringify(requestId)}`;

/** Finds, for a request, the first notifications/cancelled naming it (cancelFinder). */
export type CancelFinder = (x: Exchange) => Exchange | undefined;

/**
 * The first notifications/cancelled on the request's MCP session naming its id, sent no earlier than `x` began: the
 * notifications are grouped once by (session, requestId), so each lookup is a binary search and a check that asks
 * for every abandoned request stays linear in the journal.
 */
export function cancelFinder(all: readonly Exchange[]): CancelFinder {
  const byKey = groupBy(all, (y) => (y.method === "notifications/cancelled" ? cancelKey(y.sessionId, y.params?.requestId) : undefined));
  return (x) => {
    const list = byKey.get(cancelKey(x.sessionId, x.id));
    return list?.[firstFrom(list, x.start, "start")];
  };
}

/**
 * For a request whose SSE stream was cut, the GET that resumed it and delivered its response (2025-11-25
 * §Resumability): the journal gives that GET the call's method and id (src/mcp/pipeline.ts), on the same MCP session.
 */
export function resumedAnswer(all: readonly Exchange[]): (x: Exchange) => Exchange | undefined {
  const key = (x: Exchange) =>
    x.method !== undefined && x.id !== undefined && x.id !== null && (x.isRequest || x.httpMethod === "GET")
      ? JSON.stringify([x.sessionId ?? null, x.method, x.id])
      : undefined;
  const next = nextByKey(all, key);
  return (x) => {
    const y = next(x);
    return x.isRequest && y?.httpMethod === "GET" && y.reply.message !== undefined ? y : undefined;
  };
}

/** The key of requests for one method and target: the next attempt at the same thing, whatever its params. */
export const sameTarget = (x: Exchange): string | undefined => (x.isRequest ? `${x.method}\u0000${targetOf(x) ?? ""}` : undefined);

/** The key of requests for one call: the same method and call params. */
export const sameCallKey = (x: Exchange): string | undefined => (x.isRequest && x.callKey !== undefined ? `${x.method}\u0000${x.callKey}` : undefined);

/** Milliseconds from the end of `before`'s response to the start of `after`'s request. */
export function gapMs(before: Exchange, after: Exchange): number {
  return after.start - before.end;
}

/** Where a retry came from, as the wire reads: the same session and clientInfo, and the same JSON-RPC id or not. */
export function originOf(earlier: Exchange, retry: Exchange): RetryOrigin {
  const wire = (x: Exchange) => {
    // The projection keeps clientInfo as its key; a whole entry still has it.
    const client = x.entry.client ?? clientKey(x.entry.clientInfo);
    return { ...(x.id !== undefined ? { id: x.id } : {}), ...(x.sessionId !== undefined ? { session: x.sessionId } : {}), ...(client !== undefined ? { client } : {}) };
  };
  return retryOrigin(wire(earlier), wire(retry));
}

/** One retry a check found, with its origin as the wire reads it. */
export function retrySeen(earlier: Exchange, retry: Exchange): RetrySeen {
  const origin = originOf(earlier, retry);
  return { seq: retry.seq, retryOf: earlier.seq, retryOrigin: origin, reading: ORIGIN_READING[origin] };
}

/**
 * What an exchange got, in words for messages. The classifier's TOOL_SUCCESS is its outcome for any usable result
 * (src/classify/result.ts), so a success is named a tool result only on tools/call: an initialize or server/discover
 * answer is "a result", never a tool outcome.
 */
export function answerOf(x: Exchange): string {
  const outcome = x.entry.verdict?.outcome;
  switch (outcome) {
    case "TOOL_SUCCESS":
      return x.method === "tools/call" ? "a tool result" : `a result to ${x.method ?? "the request"}`;
    case "NOTIFICATION_ACCEPTED":
      return `HTTP ${x.status} (accepted)`;
    case "HTTP_ERROR":
      return `HTTP ${x.status}`;
    case "JSONRPC_ERROR":
      return `JSON-RPC error ${errorCode(x) ?? "(no code)"}`;
    case "TOOL_ERROR":
      return "a tool error (isError: true)";
    case "INPUT_REQUIRED":
      return "an input_required result";
    case "STREAM_INCOMPLETE":
      return "a stream cut before the response";
    case undefined:
      return `HTTP ${x.status}`;
    default:
      return OUTCOMES[outcome].success ? `a success (${outcome})` : `an unusable response (${outcome})`;
  }
}
