import { isRecord, type RequestId } from "../wire/jsonrpc.ts";
import { parseJson } from "./match.ts";

/**
 * What a replayed answer changes so it is valid for the client now talking: the id of the answer to the recorded
 * request becomes the new request's id, and each requestState the recording issued is swapped for one this replay
 * issued (`issueState`), which leads the client's follow-up to the recorded continuation.
 */
export interface Rewrite {
  recordedId: RequestId | null | undefined;
  newId: RequestId | undefined;
  issueState: (recorded: string) => string;
}

/** The message with the rewrite applied; the same object when nothing in it changes. */
export function rewriteMessage(message: unknown, rewrite: Rewrite): unknown {
  if (!isRecord(message) || "method" in message || !("result" in message || "error" in message)) return message;
  let out = message;
  if (rewrite.newId !== undefined && message.id === rewrite.recordedId && message.id !== null) out = { ...out, id: rewrite.newId };
  if (isRecord(message.result) && typeof message.result.requestState === "string") {
    out = { ...out, result: { ...message.result, requestState: rewrite.issueState(message.result.requestState) } };
  }
  return out;
}

/** A JSON body rewritten; a body that is not JSON, or holds nothing to rewrite, stays as recorded, byte for byte. */
export function rewriteJsonText(text: string, rewrite: Rewrite): string {
  const parsed = parseJson(text);
  if (parsed === undefined) return text;
  const out = rewriteMessage(parsed, rewrite);
  return out === parsed ? text : JSON.stringify(out);
}

const BLANK_LINE = /(\r\n\r\n|\n\n|\r\r)/;
const LINE_END = /\r\n|\n|\r/;

/** The data of one SSE event's lines (`data:` lines joined by newlines), or undefined when it has none. */
export function eventData(block: string): string | undefined {
  const data = block.split(LINE_END).filter((l) => l.startsWith("data:")).map((l) => l.slice(l.startsWith("data: ") ? 6 : 5));
  return data.length > 0 ? data.join("\n") : undefined;
}

/** SSE text (whole events) rewritten event by event; ids, event types, comments and line ends are kept. */
export function rewriteSseText(text: string, rewrite: Rewrite): string {
  return text
    .split(BLANK_LINE)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      const data = eventData(part);
      const parsed = data === undefined ? undefined : parseJson(data);
      if (parsed === undefined) return part;
      const out = rewriteMessage(parsed, rewrite);
      if (out === parsed) return part;
      const lines = part.split(LINE_END).filter((l) => !l.startsWith("data:"));
      return [...lines, `data: ${JSON.stringify(out)}`].join("\n");
    })
    .join("");
}

/** The JSON-RPC messages an SSE text carries, in order. */
export function sseMessages(text: string): unknown[] {
  return text
    .split(BLANK_LINE)
    .filter((_, i) => i % 2 === 0)
    .flatMap((part) => {
      const data = eventData(part);
      const parsed = data === undefined ? undefined : parseJson(data);
      return isRecord(parsed) ? [parsed] : [];
    });
}
