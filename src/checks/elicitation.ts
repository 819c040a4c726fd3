import { isRecord, show } from "../classify/index.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { type CancelFinder, cancelFinder, type Exchange, firstFrom, groupBy } from "./exchange.ts";
import { requestMessage, streamMessages } from "./stream-messages.ts";

type Json = Record<string, unknown>;
const ACTIONS = ["accept", "decline", "cancel"];
const INVALID_PARAMS = -32602;

/** One legacy elicitation/create the server sent on a stream, and the client's JSON-RPC response to it, if any. */
interface Ask {
  stream: Exchange;
  id: string | number;
  mode: "form" | "url";
  answer?: Exchange;
  message?: Json;
}

function asks(all: readonly Exchange[]): Ask[] {
  const answers = new Map<string, { x: Exchange; message: Json }>();
  for (const x of all) {
    const message = x.httpMethod === "POST" && x.entry.rpc.kind === "response" ? requestMessage(x) : undefined;
    const key = message === undefined ? undefined : JSON.stringify(message.id);
    if (message && key !== undefined && !answers.has(key)) answers.set(key, { x, message });
  }
  return all.flatMap((stream) =>
    streamMessages(stream).flatMap((m): Ask[] => {
      if (m.method !== "elicitation/create" || (typeof m.id !== "string" && typeof m.id !== "number")) return [];
      const mode = isRecord(m.params) && m.params.mode === "url" ? "url" : "form";
      const found = answers.get(JSON.stringify(m.id));
      return [{ stream, id: m.id, mode, ...(found ? { answer: found.x, message: found.message } : {}) }];
    }),
  );
}

type Declared = { capability: Json | false; at: Exchange } | undefined;

/**
 * The elicitation capability the client declared at the initialize that opened each stream's MCP session (undefined
 * when unknown): the initializes are mapped once by the session id their answer gave.
 */
function declaredFinder(all: readonly Exchange[]): (stream: Exchange) => Declared {
  const opened = groupBy(all, (x) => (x.method === "initialize" && x.sessionId === undefined ? x.entry.response.headers["mcp-session-id"] : undefined));
  return (stream) => {
    const list = stream.sessionId === undefined ? undefined : opened.get(stream.sessionId);
    const at = list?.[firstFrom(list, stream.index) - 1];
    if (!at?.params) return undefined;
    const capabilities = isRecord(at.params.capabilities) ? at.params.capabilities : {};
    return { capability: isRecord(capabilities.elicitation) ? capabilities.elicitation : false, at };
  };
}

/** Why an elicitation result is not a valid ElicitResult, or undefined when it is one. */
function badResult(result: unknown, mode: "form" | "url"): string | undefined {
  if (!isRecord(result)) return `a result that is not an object (${show(result)})`;
  if (!ACTIONS.includes(result.action as string)) return `action ${show(result.action)}, not accept, decline or cancel`;
  if (result.content === undefined) return undefined;
  if (mode === "url") return "content, which a URL-mode answer does not carry";
  const values = isRecord(result.content) ? Object.values(result.content) : undefined;
  const primitive = (v: unknown) => ["string", "number", "boolean"].includes(typeof v) || (Array.isArray(v) && v.every((s) => typeof s === "string"));
  return values?.every(primitive) ? undefined : `content ${show(result.content)}, not an object of strings, numbers, booleans or string arrays`;
}

function judgeError(ask: Ask & { answer: Exchange }, error: Json, what: string, decl: Declared): Observation {
  const code = typeof error.code === "number" ? error.code : undefined;
  const said = `JSON-RPC error ${code ?? "(no code)"}${typeof error.message === "string" ? ` "${error.message}"` : ""}`;
  const seqs = [ask.stream.seq, ask.answer.seq];
  if (decl === undefined) return observe("warning", `The client answered ${what} with ${said} (seq ${ask.answer.seq}); the journal has no initialize to tell whether it declared elicitation.`, ...seqs);
  if (decl.capability === false) return observe("info", `The client answered ${what} with ${said} (seq ${ask.answer.seq}); it had not declared elicitation at initialize (seq ${decl.at.seq}).`, ...seqs, decl.at.seq);
  // 2025-11-25 elicitation: a client refuses a mode it did not declare with -32602.
  if (ask.mode === "url" && !("url" in decl.capability) && code === INVALID_PARAMS) {
    return observe("pass", `The client refused ${what} with -32602: it declared no URL mode at initialize (seq ${decl.at.seq}).`, ...seqs, decl.at.seq);
  }
  return observe(
    "fail",
    `The client answered ${what} with ${said} (seq ${ask.answer.seq}) although it declared the elicitation capability ${show(decl.capability)} at initialize (seq ${decl.at.seq}); a declined or unwanted request is answered with action decline or cancel.`,
    ...seqs,
    decl.at.seq,
  );
}

/** The lookups judge makes, each built once for the whole journal. */
interface Finders {
  declared: (stream: Exchange) => Declared;
  cancelOf: CancelFinder;
}

function judge(find: Finders, ask: Ask): Observation {
  const what = `the ${ask.mode}-mode elicitation/create ${show(ask.id, 60)} on the stream of seq ${ask.stream.seq}`;
  if (!ask.answer || !ask.message) {
    const closed = ask.stream.entry.response.clientClosedAtMs;
    if (closed !== undefined) {
      return observe("info", `No answer to ${what}: the client closed that stream ${closed} ms after its request, perhaps before it read the elicitation.`, ask.stream.seq);
    }
    const cancel = find.cancelOf(ask.stream);
    if (cancel) return observe("info", `No answer to ${what}: the client cancelled ${ask.stream.method ?? "the request"} itself (notifications/cancelled, seq ${cancel.seq}).`, ask.stream.seq, cancel.seq);
    return observe("fail", `The client never answered ${what}; a JSON-RPC request MUST get a response (accept, decline or cancel).`, ask.stream.seq);
  }
  if (isRecord(ask.message.error)) return judgeError({ ...ask, answer: ask.answer }, ask.message.error, what, find.declared(ask.stream));
  const bad = badResult(ask.message.result, ask.mode);
  if (bad) return observe("fail", `The client answered ${what} with ${bad} (seq ${ask.answer.seq}).`, ask.stream.seq, ask.answer.seq);
  const action = (ask.message.result as Json).action as string;
  return observe("pass", `The client answered ${what} with action ${action} (seq ${ask.answer.seq}).`, ask.stream.seq, ask.answer.seq);
}

/**
 * elicitation-answered: a 2025-11-25 elicitation/create the server sent on a stream gets a JSON-RPC response from the
 * client, a valid ElicitResult; an error only where the spec allows one (a mode the client did not declare).
 * The 2026-07-28 rounds (input_required) are judged by the mrtr-* checks.
 */
export function elicitationChecks(all: readonly Exchange[]): Check[] {
  const find: Finders = { declared: declaredFinder(all), cancelOf: cancelFinder(all) };
  return summarize("elicitation-answered", asks(all).map((ask) => judge(find, ask)));
}
