import { headerProblem } from "../base/header-safe.ts";
import type { Effects, MessageFacts } from "../mcp/facts.ts";
import type { Decision } from "../faults/schema.ts";
import { replyWith, type Answer } from "../faults/perform.ts";
import { ownEndpoint } from "../mcp/builtin.ts";
import type { SessionRuntime } from "../mcp/runtime.ts";
import type { AnswerSource, Exchange, SourceAnswer } from "../mcp/source.ts";
import type { ToolDefinition } from "../mcp/tool.ts";
import type { Deadline } from "../wire/deadline.ts";
import { ErrorCode, errorMessage, isRecord } from "../wire/jsonrpc.ts";
import { textResponse } from "../wire/response.ts";
import { openStream } from "../wire/sse.ts";
import { randomHex } from "../base/random-id.ts";
import { sleep } from "../base/sleep.ts";
import { matchKey, parseJson } from "./match.ts";
import { rewriteJsonText, rewriteMessage, rewriteSseText, sseMessages, type Rewrite } from "./rewrite.ts";
import type { MatchKey, RecordedExchange } from "./exchange.ts";

/** One recorded exchange a replay found for a request, with its place in the recording. */
export interface Found {
  seq: number;
  exchange: RecordedExchange;
}

/** What a replay reads and marks in the loaded recording (RecordingStore, in the session's SQLite). */
export interface ReplayStore {
  replayKey(): Uint8Array | undefined;
  take(key: MatchKey, afterSeq?: number): Found | undefined;
  recorded(key: MatchKey): number;
  issueState(token: string, seq: number): void;
  stateSeq(token: string): number | undefined;
}

export type Timing = "recorded" | "fast";

/**
 * Headers never replayed: they describe the recorded connection, not the answer, or would act on Faultline's origin
 * (a recorded or uploaded Set-Cookie).
 */
const CONNECTION_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date", "content-encoding", "set-cookie"]);

const NONE = (): Effects => "none";

/**
 * A recording as an answer source (src/mcp/source.ts), with no upstream and no handler. A request finds the first
 * unused recorded exchange with the same method and canonical params digest (src/recording/match.ts), so distinct
 * calls are found in any order and a repeated one replays its recordings in order. Without a fault the recorded
 * response goes out as recorded (status, headers, body, SSE events at their recorded times or at once); with a fault
 * that reads the answer, the recorded JSON-RPC answer stands where the handler's would. `tools` are the ones the read
 * stage checks calls against, as for the built-in server.
 */
export function replaySource(store: ReplayStore, timing: Timing, tools: readonly ToolDefinition[]): AnswerSource {
  return {
    rules: "own",
    tools,
    other: async (exchange) => ({ response: ownEndpoint(exchange) }),
    // A replay has no server request waiting: the recorded stream goes on by itself, so the client's answer is taken.
    clientResponse: async (_exchange, facts) => ({ response: new Response(null, { status: 202 }), facts }),
    answer: (exchange, facts) => replayed(store, timing, exchange, facts.message),
  };
}

/** Takes the request's recorded exchange now; its answer is read only when asked for. */
function replayed(store: ReplayStore, timing: Timing, exchange: Exchange, message: MessageFacts): SourceAnswer<never> {
  const id = message.requestId;
  // A notification is taken as a server that ignores it would take it: 202.
  if (message.incoming.kind === "notification") return { reply: replyWith(undefined), stream: false, effects: NONE };
  const key = store.replayKey();
  const match = key ? matchKey(message.incoming.message, key) : undefined;
  const state = message.params.requestState;
  const after = typeof state === "string" ? store.stateSeq(state) : 0;
  if (after === undefined) {
    return { reply: replyWith(errorMessage(id, ErrorCode.InvalidParams, "Invalid params: requestState was not issued by this replay")), stream: false, effects: NONE };
  }
  const found = match ? store.take(match, after) : undefined;
  if (!found) return { reply: replyWith(undefined), stream: false, effects: NONE, decision: unmatched(message, match ? store.recorded(match) : 0) };
  const rewrite: Rewrite = {
    recordedId: found.exchange.rpc.id,
    newId: id,
    issueState: () => {
      const token = `replay-${randomHex(16)}`;
      store.issueState(token, found.seq);
      return token;
    },
  };
  const headers = replayHeaders(found.exchange, message, exchange.session);
  const clock = { timing, deadline: exchange.deadline };
  // The recorded tool "ran" only when its recorded answer went out, as recorded or under a fault that read it.
  let used = false;
  const answer: Answer = async (emit) => {
    used = true;
    return recordedAnswer(found, rewrite, clock, id, emit);
  };
  return {
    asIs: () => {
      used = true;
      return recorded(found.exchange, rewrite, headers, clock, (promise) => exchange.session.waitUntil(promise));
    },
    reply: async () => ({ answer, status: () => found.exchange.response.status }),
    stream: found.exchange.response.events !== undefined,
    headers,
    effects: () => (used ? (found.exchange.effects ?? "none") : "none"),
  };
}

/** The finding for a request the recording has no answer for: a JSON-RPC error, journalled as the replay's decision. */
function unmatched(message: MessageFacts, times: number): Decision {
  const { method, toolName } = message.request;
  const what = `${method}${toolName ? ` of tool '${toolName}'` : ""}`;
  const text =
    times > 0
      ? `Replay: ${what} with these arguments was recorded ${times} time${times === 1 ? "" : "s"}, and every one was replayed already`
      : `Replay: nothing was recorded for ${what} with these arguments`;
  return {
    fault: { kind: "jsonrpc_error", code: ErrorCode.InvalidRequest, message: text, httpStatus: 200, data: { replay: "unmatched", method, ...(toolName ? { tool: toolName } : {}), recorded: times } },
    reason: `replay: no recorded exchange left for ${what}`,
  };
}

/**
 * The recorded headers, less connection ones, with Mcp-Session-Id rewritten: a recorded legacy initialize opens the
 * new client's MCP session (the pipeline names its id), so its later requests pass the session check. That holds
 * for a recording of a stateless server too (a proxied upstream that issued no id): the replay is a Faultline
 * session, which checks legacy session ids, so its initialize always issues one.
 */
export function replayHeaders(exchange: RecordedExchange, message: MessageFacts, session: SessionRuntime): Record<string, string> {
  const out: Record<string, string> = {};
  // A header no Worker can send (a recording stored before uploads were checked) is left out rather than failing the answer.
  for (const [name, value] of Object.entries(exchange.response.headers)) if (!CONNECTION_HEADERS.has(name) && !headerProblem(name, value)) out[name] = value;
  if (out["mcp-session-id"] === undefined && message.newMcpSessionId === undefined) return out;
  const id = message.newMcpSessionId ?? message.request.mcpSessionId;
  if (id === undefined) {
    delete out["mcp-session-id"];
    return out;
  }
  out["mcp-session-id"] = id;
  if (message.newMcpSessionId) {
    const result = finalMessage(exchange)?.result;
    const version = isRecord(result) && typeof result.protocolVersion === "string" ? result.protocolVersion : message.request.protocolVersion;
    session.createMcpSession(message.newMcpSessionId, version, message.clientCapabilities, message.params.clientInfo);
  }
  return out;
}

/** How a replay keeps time: recorded times count from when the request arrived, within its response deadline. */
interface Clock {
  timing: Timing;
  deadline: Deadline;
}

/** When the replayed request arrived, in epoch ms. */
const startOf = (deadline: Deadline) => deadline.at - deadline.seconds * 1000;

/** Waits until `atMs` after the request arrived, within the response deadline; at once when timing is fast. */
async function until(atMs: number, clock: Clock): Promise<void> {
  if (clock.timing === "fast") return;
  const wait = Math.min(startOf(clock.deadline) + atMs - Date.now(), clock.deadline.remainingMs());
  if (wait > 0) await sleep(wait);
}

/** The recorded response as it went out, rewritten for the new client. */
async function recorded(exchange: RecordedExchange, rewrite: Rewrite, headers: Record<string, string>, clock: Clock, waitUntil: (promise: Promise<unknown>) => void): Promise<Response> {
  const { status, body, events, headersAtMs } = exchange.response;
  await until(headersAtMs, clock);
  const noBody = status === 204 || status === 304 || (status >= 100 && status < 200);
  if (!events) return noBody || body.text === "" ? new Response(null, { status, headers }) : textResponse(rewriteJsonText(body.text, rewrite), { status, headers });
  const readable = openStream({ waitUntil, deadline: clock.deadline, sse: true }, async (out) => {
    let from = 0;
    for (const event of events) {
      await until(event.atMs, clock);
      if (!out.open) return;
      await out.write(rewriteSseText(body.text.slice(from, event.end), rewrite));
      from = event.end;
    }
  });
  return new Response(readable, { status, headers });
}

const isAnswer = (m: unknown): m is Record<string, unknown> => isRecord(m) && !("method" in m) && ("result" in m || "error" in m);

/** The JSON-RPC messages of a recorded body, each with the time it went out (a JSON body's when its headers did). */
function timedMessages(exchange: RecordedExchange): { atMs: number; message: unknown }[] {
  const { body, events, headersAtMs } = exchange.response;
  if (!events) return [{ atMs: headersAtMs, message: parseJson(body.text) }];
  let from = 0;
  return events.flatMap((event) => {
    const messages = sseMessages(body.text.slice(from, event.end));
    from = event.end;
    return messages.map((message) => ({ atMs: event.atMs, message }));
  });
}

/** The recorded JSON-RPC answer: the last response message of the body, undefined when there is none. */
function finalMessage(exchange: RecordedExchange): Record<string, unknown> | undefined {
  return timedMessages(exchange).findLast((m) => isAnswer(m.message))?.message as Record<string, unknown> | undefined;
}

/**
 * What the handler would have answered, for a fault to shape: the recorded SSE messages before the answer go out
 * through `emit` at their recorded times, then the answer is returned. A recorded response without a JSON-RPC answer
 * (an HTTP error page, a cut stream) stands as an error that says so.
 */
async function recordedAnswer(found: Found, rewrite: Rewrite, clock: Clock, requestId: MessageFacts["requestId"], emit: ((m: Record<string, unknown>) => void) | undefined): Promise<Record<string, unknown> | undefined> {
  const { exchange } = found;
  if (exchange.rpc.kind === "notification") return undefined;
  const messages = timedMessages(exchange);
  const last = messages.findLastIndex((m) => isAnswer(m.message));
  for (const { atMs, message } of messages.slice(0, last === -1 ? messages.length : last)) {
    if (!isRecord(message) || !emit) continue;
    await until(atMs, clock);
    emit(rewriteMessage(message, rewrite) as Record<string, unknown>);
  }
  if (last !== -1) {
    await until(messages[last]!.atMs, clock);
    return rewriteMessage(messages[last]!.message, rewrite) as Record<string, unknown>;
  }
  return errorMessage(requestId, ErrorCode.InternalError, `Replay: the recorded answer was HTTP ${exchange.response.status} without a JSON-RPC message`);
}
