import { isRecord, type RequestId } from "../wire/jsonrpc.ts";
import { parseSse } from "../classify/index.ts";
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

/**
 * A line end (CRLF, LF or CR, as the classifier's parseSse reads them) followed by another: the blank line that ends an
 * SSE event. The recorder times events by it and the rewrite below cuts a body into events by it, so both frame a
 * stream as parseSse does.
 */
export const EVENT_END = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/;
const BLANK_LINE = new RegExp(`(${EVENT_END.source})`);
const LINE_END = /\r\n|\n|\r/;

/** The data of one SSE event's lines (its `data` fields joined by newlines, read by parseSse), or undefined when it has none. */
export function eventData(block: string): string | undefined {
  const sse = parseSse(block);
  const event = sse.events[0] ?? sse.unterminated;
  return event?.hasData ? event.data : undefined;
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
      const lines = part.split(LINE_END).filter((l) => !isDataLine(l));
      return [...lines, `data: ${JSON.stringify(out)}`].join("\n");
    })
    .join("");
}

/** A `data` field's line, as parseSse reads one (a byte-order mark may open the stream). */
const isDataLine = (line: string) => {
  const field = line.startsWith("\ufeff") ? line.slice(1) : line;
  return field === "data" || field.startsWith("data:");
};

/**
 * The JSON-RPC messages an SSE text carries, in order, as parseSse reads them; a last event without its blank line
 * counts too (a recorded body's final slice, or a HAR's body, may lack it).
 */
export function sseMessages(text: string): unknown[] {
  const sse = parseSse(text);
  return [...sse.events, ...(sse.unterminated ? [sse.unterminated] : [])].flatMap((event) => {
    const parsed = event.hasData ? parseJson(event.data) : undefined;
    return isRecord(parsed) ? [parsed] : [];
  });
}
