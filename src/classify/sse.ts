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

  toEvent(): SseEvent {
    const event: SseEvent = { type: this.type === "" ? "message" : this.type, data: this.data, hasData: this.dataLines > 0 };
    if (this.id !== undefined) event.id = this.id;
    if (this.retry !== undefined) event.retry = this.retry;
    return event;
  }
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const DIGITS = /^\d+$/;

/**
 * Reads an event stream in one pass over the text, without splitting it into lines: this runs over
 * every byte of every SSE response, so it costs about as much as finding the line ends.
 */
export function parseSse(text: string): SseStream {
  const stream: SseStream = { events: [], comments: 0, invalidRetry: [] };
  const block = new Block();
  const end = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Lines end with CRLF, LF or CR; most streams use LF only, so CR is looked for only when present.
  let nextCr = text.indexOf("\r", pos);
  let nextLf = text.indexOf("\n", pos);
  while (pos < end) {
    if (nextLf >= 0 && nextLf < pos) nextLf = text.indexOf("\n", pos);
    if (nextCr >= 0 && nextCr < pos) nextCr = text.indexOf("\r", pos);
    const eol = nextCr < 0 ? nextLf : nextLf < 0 ? nextCr : Math.min(nextCr, nextLf);
    if (eol < 0) {
      // The last piece has no line end: apply it, but its event is never dispatched.
      applyLine(text, pos, end, block, stream);
      break;
    }
    if (eol === pos) {
      if (block.fields > 0) stream.events.push(block.toEvent());
      block.reset();
    } else {
      applyLine(text, pos, eol, block, stream);
    }
    pos = text.charCodeAt(eol) === CR && text.charCodeAt(eol + 1) === LF ? eol + 2 : eol + 1;
  }
  if (block.fields > 0) stream.unterminated = block.toEvent();
  return stream;
}

/** Applies the line text[start, eol) (never empty) to the block. */
function applyLine(text: string, start: number, eol: number, block: Block, stream: SseStream): void {
  if (text.charCodeAt(start) === COLON) {
    stream.comments++;
    return;
  }
  let colon = text.indexOf(":", start);
  if (colon < 0 || colon > eol) colon = eol;
  let valueStart = colon + 1;
  if (valueStart < eol && text.charCodeAt(valueStart) === SPACE) valueStart++;
  const value = valueStart < eol ? text.slice(valueStart, eol) : "";
  switch (colon - start) {
    case 4:
      if (text.startsWith("data", start)) {
        block.data = block.dataLines === 0 ? value : `${block.data}\n${value}`;
        block.dataLines++;
        block.fields++;
      }
      break;
    case 5:
      if (text.startsWith("event", start)) {
        block.type = value;
        block.fields++;
      } else if (text.startsWith("retry", start)) {
        if (DIGITS.test(value)) {
          const ms = Math.min(Number.parseInt(value, 10), Number.MAX_SAFE_INTEGER);
          block.retry = ms;
          stream.retryMs = ms;
        } else {
          stream.invalidRetry.push(value);
        }
        block.fields++;
      }
      break;
    case 2:
      if (text.startsWith("id", start)) {
        if (!value.includes("\u0000")) {
          block.id = value;
          stream.lastEventId = value;
        }
        block.fields++;
      }
      break;
    default:
      // Unknown fields are ignored by the standard.
      break;
  }
}
