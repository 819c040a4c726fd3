import { parseSse } from "../classify/index.ts";

/**
 * Reads an upstream's SSE body event by event, as the bytes arrive (never the whole body first), so a fault that
 * alters a stream still passes the upstream's notifications on when they come. Only the `data` of each event is kept
 * (the MCP message); an event larger than `maxEventBytes` ends the read, as does the end of the body.
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>, maxEventBytes: number, seen: (text: string) => void): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      seen(text);
      buffer += text.replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = dataOf(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (data !== undefined) yield data;
      }
      if (buffer.length > maxEventBytes) return;
    }
    const data = dataOf(buffer);
    if (data !== undefined) yield data;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The data of one event block (WHATWG SSE, read by the classifier's parser), or undefined for a comment or an event with no data. */
function dataOf(block: string): string | undefined {
  const event = parseSse(`${block}\n\n`).events[0];
  return event?.hasData && event.data !== "" ? event.data : undefined;
}
