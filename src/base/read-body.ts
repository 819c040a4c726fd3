import { joined } from "./bytes.ts";

// One decoder for every body: decode() without { stream: true } keeps no state between calls, and constructing a
// TextDecoder per request showed in workerd's profile of POST /classify.
const UTF8 = new TextDecoder();

/** Bytes of a refused body read and thrown away, so the client gets its 413 instead of a reset connection. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/** Reads and discards the rest of a refused body up to DRAIN_LIMIT bytes in all, then cancels it. Never throws. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  try {
    for (let total = alreadyRead; total <= DRAIN_LIMIT; ) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away; nothing left to drain.
  }
}

/**
 * Reads a request body as UTF-8 text, refusing more than `limit` bytes: by the declared Content-Length first, then by
 * counting while reading, since a chunked upload declares none. Undefined when the body is too large. A refused body
 * is drained (up to DRAIN_LIMIT) or cancelled before the answer, never left half-read: workerd otherwise reads it
 * after the response has been sent ("Can't read from request stream after response has been sent").
 */
export async function readCapped(request: Pick<Request, "body" | "headers" | "arrayBuffer">, limit: number): Promise<string | undefined> {
  if (!request.body) return "";
  const header = request.headers.get("content-length");
  const declared = header === null ? NaN : Number(header);
  if (declared >= 0 && declared <= limit) {
    // A declared length within the cap: HTTP framing ends the body there, so the runtime's native read is bounded. The
    // count is checked again for a Request built in-process, whose header nothing enforces.
    const bytes = await request.arrayBuffer();
    return bytes.byteLength > limit ? undefined : UTF8.decode(bytes);
  }
  const reader = request.body.getReader();
  if (declared > limit) {
    await discard(reader, declared > DRAIN_LIMIT ? DRAIN_LIMIT + 1 : 0);
    return undefined;
  }
  return readCounting(reader, limit);
}

/** Reads a body of undeclared length chunk by chunk, giving up (and draining) as soon as it passes `limit` bytes. */
async function readCounting(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<string | undefined> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await discard(reader, total);
      return undefined;
    }
    parts.push(value);
  }
  return UTF8.decode(joined(parts, total));
}
