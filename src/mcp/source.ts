/**
 * Answer sources. A session answers from one of three: the built-in server (src/mcp/builtin.ts), a real upstream MCP
 * server (src/proxy/source.ts) or a recording (src/recording/replay.ts). The session picks one from its record
 * (src/session/answer-source.ts); the pipeline (src/mcp/pipeline.ts) runs read -> decide -> perform once for all
 * three and asks the source only for what the fault reads.
 */
import type { Decision } from "../faults/schema.ts";
import type { Reply } from "../faults/perform.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { IncomingMessage } from "../wire/jsonrpc.ts";
import type { Effects, Facts, Handled, MessageFacts } from "./facts.ts";
import type { ActiveScenario, SessionRuntime } from "./runtime.ts";
import type { ToolDefinition } from "./tool.ts";

/** One HTTP exchange on a session's MCP endpoint, as every stage and source sees it. */
export interface Exchange {
  request: Request;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string>;
  session: SessionRuntime;
  active: ActiveScenario;
  deadline: Deadline;
  /** The origin the answer's URLs start with (the public origin behind a reverse proxy). */
  origin: string;
}

export type ClientResponse = Extract<IncomingMessage, { kind: "response" }>["message"];

/**
 * A source of answers. `Trace` is what the source tells the journal about an exchange beside the exchange itself
 * (an upstream's side of it); the pipeline carries it without reading it.
 */
export interface AnswerSource<Trace = never> {
  /**
   * Whose protocol rules apply: "own" (Faultline's: its MCP sessions, its header and capability checks, its tools),
   * or "upstream" (the upstream server validates and owns the MCP sessions; Faultline's checks would be a guess).
   */
  readonly rules: "own" | "upstream";
  /** The tools the read stage checks tools/call requests against. */
  readonly tools: readonly ToolDefinition[];
  /** A request other than POST that no kept stream answers (GET, DELETE, ...). */
  other(exchange: Exchange): Promise<Handled<Trace>>;
  /** A client's JSON-RPC response to a server request (2025 eras). */
  clientResponse(exchange: Exchange, facts: Facts, message: ClientResponse): Promise<Handled<Trace>>;
  /**
   * The source's answer to one request or notification. Calling this does only the source's bookkeeping (a replay
   * takes its recorded exchange here); the work that answers (the handler, the upstream call) waits for `reply`.
   */
  answer(exchange: Exchange, facts: Facts & { message: MessageFacts }): SourceAnswer<Trace>;
  /**
   * What the source tells the journal about a request it was never asked about (a transport fault or a rejection
   * answered first): an upstream notes that it was not called, and which tool the call named.
   */
  notAsked?(exchange: Exchange, facts: Facts & { message: MessageFacts }): () => Promise<Trace>;
}

export interface SourceAnswer<Trace> {
  /** For a fault that reads the answer: asked at most once, and never by a fault that replaces the answer. */
  reply: () => Promise<Reply>;
  /**
   * The answer with no fault, as the source sends it (an upstream's bytes as they come, a recording at its recorded
   * times). Absent: the reply, framed as it is.
   */
  asIs?: () => Promise<Response>;
  /** Whether the answer goes on an SSE stream, as far as the source knows before it is asked. */
  stream: boolean;
  /** Headers the answer carries whatever the fault (a new Mcp-Session-Id, a recording's headers). */
  headers?: Record<string, string>;
  /** tools/call: whether the tool ran, read when the exchange is journalled (after the response ended). */
  effects: () => Effects;
  /** The source chose the answer itself (a replay with nothing recorded for the request): journalled as the fault. */
  decision?: Decision;
  /** What the source tells the journal about the exchange, read once it has ended. */
  trace?: () => Promise<Trace>;
}
