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

interface Block {
  type: string;
  data: string[];
  id?: string;
  retry?: number;
  fields: number;
}

function emptyBlock(): Block {
  return { type: "", data: [], fields: 0 };
}

function toEvent(block: Block): SseEvent {
  const event: SseEvent = { type: block.type === "" ? "message" : block.type, data: block.data.join("\n"), hasData: block.data.length > 0 };
  if (block.id !== undefined) event.id = block.id;
  if (block.retry !== undefined) event.retry = block.retry;
  return event;
}

export function parseSse(text: string): SseStream {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  // Lines end with CRLF, LF or CR; the last piece has no terminator yet.
  const lines = body.split(/\r\n|\r|\n/);
  const tail = lines.pop() ?? "";
  const stream: SseStream = { events: [], comments: 0, invalidRetry: [] };
  let block = emptyBlock();

  for (const line of lines) {
    if (line === "") {
      if (block.fields > 0) stream.events.push(toEvent(block));
      block = emptyBlock();
      continue;
    }
    applyLine(line, block, stream);
  }
  if (tail !== "") applyLine(tail, block, stream);
  if (block.fields > 0) stream.unterminated = toEvent(block);
  return stream;
}

function applyLine(line: string, block: Block, stream: SseStream): void {
  if (line.startsWith(":")) {
    stream.comments++;
    return;
  }
  const colon = line.indexOf(":");
  const field = colon < 0 ? line : line.slice(0, colon);
  let value = colon < 0 ? "" : line.slice(colon + 1);
  if (value.startsWith(" ")) value = value.slice(1);
  switch (field) {
    case "data":
      block.data.push(value);
      block.fields++;
      break;
    case "event":
      block.type = value;
      block.fields++;
      break;
    case "id":
      if (!value.includes("\u0000")) {
        block.id = value;
        stream.lastEventId = value;
      }
      block.fields++;
      break;
    case "retry":
      if (/^\d+$/.test(value)) {
        const ms = Math.min(Number.parseInt(value, 10), Number.MAX_SAFE_INTEGER);
        block.retry = ms;
        stream.retryMs = ms;
      } else {
        stream.invalidRetry.push(value);
      }
      block.fields++;
      break;
    default:
      // Unknown fields are ignored by the standard.
      break;
  }
}
