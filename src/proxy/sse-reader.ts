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

/** The data lines of one event joined by newlines (WHATWG SSE), or undefined for a comment or an event with no data. */
function dataOf(block: string): string | undefined {
  const lines = block.split("\n").filter((line) => line === "data" || line.startsWith("data:"));
  if (lines.length === 0) return undefined;
  const data = lines.map((line) => line.slice(5).replace(/^ /, "")).join("\n");
  return data === "" ? undefined : data;
}
