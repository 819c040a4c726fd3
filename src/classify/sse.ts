/** Server-Sent Events framing, following the HTML standard's event-stream interpretation. */

export interface SseEvent {
  /** The event type; "message" when no `event:` field was given. */
  type: string;
  /** The joined `data:` lines ("\n" between them). */
  data: string;
  /** True when the block had at least one `data` field. */
  hasData: boolean;
  /** The `id:` field of this block, if any. */
  id?: string;
  /** The `retry:` field of this block, if it was all digits. */
  retry?: number;
}

export interface SseStream {
  /** Every block that ended with a blank line and had at least one field. */
  events: SseEvent[];
  comments: number;
  lastEventId?: string;
  retryMs?: number;
  invalidRetry: string[];
  /** A block cut off by the end of the stream; the standard says it is not dispatched. */
  unterminated?: SseEvent;
}

/** The event being read: reset, not reallocated, after each blank line. */
class Block {
  type = "";
  data = "";
  dataLines = 0;
  id: string | undefined = undefined;
  retry: number | undefined = undefined;
  fields = 0;

  reset(): void {
    this.type = "";
    this.data = "";
    this.dataLines = 0;
    this.id = undefined;
    this.retry = undefined;
    this.fields = 0;
  }

  /** Ends the block at a blank line: an event when it had a field, then a fresh block. */
  dispatch(stream: SseStream): void {
    if (this.fields > 0) stream.events.push(this.toEvent());
    this.reset();
  }

  toEvent(): SseEvent {
    const event: SseEvent = { type: this.type === "" ? "message" : this.type, data: this.data, hasData: this.dataLines > 0 };
    if (this.id !== undefined) event.id = this.id;
    if (this.retry !== undefined) event.retry = this.retry;
    return event;
  }
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const LOWER_D = 100;
const LOWER_E = 101;
const LOWER_I = 105;
const DIGITS = /^\d+$/;

/** What a line holds: a comment, one of the fields the standard knows, or a field it ignores. */
type Field = "comment" | "data" | "event" | "id" | "retry" | "unknown";

/**
 * Reads an event stream in one pass over the text, without splitting it into lines: this runs over
 * every byte of every SSE response, so it costs about as much as finding the line ends. Each search
 * (line feed, carriage return, colon) only moves forward, so however the lines look the text is read
 * a bounded number of times.
 */
export function parseSse(text: string): SseStream {
  const stream: SseStream = { events: [], comments: 0, invalidRetry: [] };
  const block = new Block();
  const end = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Lines end with CRLF, LF or CR; most streams use LF only, so CR is looked for only when present.
  let nextCr = text.indexOf("\r", pos);
  let nextLf = text.indexOf("\n", pos);
  let nextColon = text.indexOf(":", pos);
  while (pos < end) {
    if (nextLf >= 0 && nextLf < pos) nextLf = text.indexOf("\n", pos);
    if (nextCr >= 0 && nextCr < pos) nextCr = text.indexOf("\r", pos);
    let eol = nextCr < 0 ? nextLf : nextLf < 0 ? nextCr : Math.min(nextCr, nextLf);
    if (eol === pos) {
      block.dispatch(stream);
      pos = text.charCodeAt(eol) === CR && text.charCodeAt(eol + 1) === LF ? eol + 2 : eol + 1;
      continue;
    }
    if (eol < 0) eol = end;
    // The usual lines ("data:", "event:", "id:") are recognized by their first letter and one comparison; any other
    // line is split at its first colon, found by a search that never goes back.
    const first = text.charCodeAt(pos);
    let field: Field;
    let colon: number;
    if (first === LOWER_D && text.startsWith("data:", pos)) {
      field = "data";
      colon = pos + 4;
    } else if (first === LOWER_E && text.startsWith("event:", pos)) {
      field = "event";
      colon = pos + 5;
    } else if (first === LOWER_I && text.startsWith("id:", pos)) {
      field = "id";
      colon = pos + 2;
    } else {
      if (nextColon >= 0 && nextColon < pos) nextColon = text.indexOf(":", pos);
      colon = nextColon >= 0 && nextColon < eol ? nextColon : eol;
      field = fieldName(text, pos, colon);
    }
    applyField(text, field, colon, eol, block, stream);
    // The last piece has no line end: it is applied, but its event is never dispatched.
    if (eol === end) break;
    pos = text.charCodeAt(eol) === CR && text.charCodeAt(eol + 1) === LF ? eol + 2 : eol + 1;
    // A blank line after a field ends the block: seen here, it needs no search for its end.
    if (text.charCodeAt(pos) === LF) {
      block.dispatch(stream);
      pos++;
    }
  }
  if (block.fields > 0) stream.unterminated = block.toEvent();
  return stream;
}

/** The field named by text[start, colon). */
function fieldName(text: string, start: number, colon: number): Field {
  switch (colon - start) {
    case 0:
      return "comment";
    case 2:
      return text.startsWith("id", start) ? "id" : "unknown";
    case 4:
      return text.startsWith("data", start) ? "data" : "unknown";
    case 5:
      return text.startsWith("event", start) ? "event" : text.startsWith("retry", start) ? "retry" : "unknown";
    default:
      return "unknown";
  }
}

/** Applies one field, whose value follows the colon (and one space) up to eol, to the block. */
function applyField(text: string, field: Field, colon: number, eol: number, block: Block, stream: SseStream): void {
  if (field === "comment") {
    stream.comments++;
    return;
  }
  if (field === "unknown") return;
  let valueStart = colon + 1;
  if (valueStart < eol && text.charCodeAt(valueStart) === SPACE) valueStart++;
  const value = valueStart < eol ? text.slice(valueStart, eol) : "";
  block.fields++;
  switch (field) {
    case "data":
      block.data = block.dataLines === 0 ? value : `${block.data}\n${value}`;
      block.dataLines++;
      break;
    case "event":
      block.type = value;
      break;
    case "retry":
      if (DIGITS.test(value)) {
        const ms = Math.min(Number.parseInt(value, 10), Number.MAX_SAFE_INTEGER);
        block.retry = ms;
        stream.retryMs = ms;
      } else {
        stream.invalidRetry.push(value);
      }
      break;
    case "id":
      if (!value.includes("\u0000")) {
        block.id = value;
        stream.lastEventId = value;
      }
      break;
  }
}
