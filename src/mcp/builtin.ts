/**
 * The built-in server as an answer source (src/mcp/source.ts): the base tools and the scenario's own tools and
 * method handlers, answered by the handler stage (src/mcp/answer.ts) when a fault reads the answer.
 */
import { replyWith } from "../faults/perform.ts";
import { ErrorCode, errorMessage, resultMessage } from "../wire/jsonrpc.ts";
import { jsonResponse } from "../wire/response.ts";
import { handlerAnswer } from "./answer.ts";
import { BASE_TOOLS } from "./base-tools.ts";
import type { Effects, MessageFacts } from "./facts.ts";
import { listenResponse, SUBSCRIPTION_ID } from "./listen.ts";
import type { ActiveScenario, SessionRuntime } from "./runtime.ts";
import type { AnswerSource, ClientResponse, Exchange, SourceAnswer } from "./source.ts";
import type { ToolDefinition } from "./tool.ts";

const NO_EFFECTS = (): Effects => "none";

export function builtinSource(active: ActiveScenario): AnswerSource {
  const tools = toolsFor(active);
  return {
    rules: "own",
    tools,
    other: async (exchange) => ({ response: ownEndpoint(exchange) }),
    clientResponse: async (exchange, facts, message) => ({ response: deliverClientResponse(message, exchange.session), facts }),
    answer: (exchange, facts) => builtinAnswer(exchange, facts.message, tools),
  };
}

function builtinAnswer(exchange: Exchange, message: MessageFacts, tools: readonly ToolDefinition[]): SourceAnswer<never> {
  const { era, method } = message.request;
  const id = message.requestId;
  const headers = message.newMcpSessionId ? { "mcp-session-id": message.newMcpSessionId } : undefined;
  const fixed = (stream: boolean, reply: Record<string, unknown> | undefined) => ({ reply: replyWith(reply), stream, ...(headers ? { headers } : {}), effects: NO_EFFECTS });
  // A notification gets 202: nothing here acts on one.
  if (message.incoming.kind === "notification" || id === undefined) return fixed(false, undefined);
  if (era === "modern" && method === "subscriptions/listen") {
    return { ...fixed(true, resultMessage(id, { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: id } })), asIs: async () => listenResponse(id, message.params, exchange.session, exchange.deadline) };
  }
  const tool = message.request.toolName ? tools.find((t) => t.name === message.request.toolName) : undefined;
  const stream = exchange.active.params.responseMode === "sse" || Boolean(tool?.streams) || (era === "legacy" && Boolean(tool?.asksForInput));
  const handler = handlerAnswer(message, tools, exchange.session, exchange.active);
  return { reply: async () => ({ answer: handler.answer, status: handler.status }), stream, ...(headers ? { headers } : {}), effects: handler.effects };
}

/** The base tools plus the scenario's, which replace base tools of the same name. */
export function toolsFor(active: ActiveScenario): ToolDefinition[] {
  const extra = active.scenario.tools?.(active.params) ?? [];
  const names = new Set(extra.map((t) => t.name));
  return [...BASE_TOOLS.filter((t) => !names.has(t.name)), ...extra];
}

/**
 * What Faultline's own endpoint answers to a request other than POST (a kept stream's resumption aside): DELETE ends
 * a 2025 MCP session (without an Mcp-Session-Id it is not allowed), anything else is 405.
 */
export function ownEndpoint({ request, headers, session }: Exchange): Response {
  if (request.method !== "DELETE") return methodNotAllowed();
  const id = headers["mcp-session-id"];
  if (!id) return methodNotAllowed();
  return session.endMcpSession(id) ? new Response(null, { status: 204 }) : jsonResponse(404, errorMessage(undefined, ErrorCode.InvalidRequest, "Session not found"));
}

function methodNotAllowed(): Response {
  return jsonResponse(405, errorMessage(undefined, ErrorCode.InvalidRequest, "Method not allowed: this endpoint takes POST"), { allow: "POST, DELETE" });
}

/** 2025 eras: the client's answer to a server-to-client request, handed to the request waiting for it. */
function deliverClientResponse(message: ClientResponse, session: SessionRuntime): Response {
  const delivered = message.id !== undefined && session.deliverToServer(message.id, message);
  return delivered ? new Response(null, { status: 202 }) : jsonResponse(400, errorMessage(undefined, ErrorCode.InvalidRequest, "No pending server request has this id"));
}
