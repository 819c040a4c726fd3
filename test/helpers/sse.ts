/** A small Server-Sent Events reader for tests: a response body read event by event, as it arrives. */

export interface SseMessage {
  /** The `event:` field; "message" when absent. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  id?: string;
  retry?: number;
}

const BLOCK_END = /\r\n\r\n|\n\n|\r\r/;

/** Parses one block of SSE lines (without the blank line that ends it); undefined for a comment-only block. */
function parseBlock(block: string): SseMessage | undefined {
  const message: SseMessage = { event: "message", data: "" };
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    fields++;
    if (name === "data") data.push(value);
    else if (name === "event") message.event = value;
    else if (name === "id") message.id = value;
    else if (name === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
  }
  if (fields === 0) return undefined;
  message.data = data.join("\n");
  return message;
}

/**
 * Reads a response body as SSE, yielding each event as soon as its blank line arrives;
 * `tap` sees the raw text as it comes, for tests that also need the bytes on the wire.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>, tap?: (text: string) => void): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      tap?.(text);
      buffer += text;
      for (let match = BLOCK_END.exec(buffer); match; match = BLOCK_END.exec(buffer)) {
        const event = parseBlock(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
        if (event) yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The JSON-RPC messages carried by an SSE response body, in order. */
export async function* sseMessages(body: ReadableStream<Uint8Array>, tap?: (text: string) => void): AsyncGenerator<Record<string, unknown>> {
  for await (const event of sseEvents(body, tap)) {
    if (event.data.trim() !== "") yield JSON.parse(event.data) as Record<string, unknown>;
  }
}

/** Reads a long-lived stream as text until a marker shows up; for streams that stay open (listen, the live journal). */
export function streamText(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    get text() {
      return text;
    },
    /** True once `needle` has arrived; false when the stream ended first. */
    async until(needle: string): Promise<boolean> {
      while (!text.includes(needle)) {
        const { done, value } = await reader.read();
        if (done) return false;
        text += decoder.decode(value, { stream: true });
      }
      return true;
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
