import type { Deadline } from "../wire/deadline.ts";

/** How a bounded read of a body ended: at its end, past the bound, at the deadline, or by the body's own error. */
export type BodyEnd = "ended" | "over" | "timeout" | "failed";

export interface BodyPrefix {
  end: BodyEnd;
  /** The chunks read, in order: all of the body when it ended, else as far as it went (past the bound by one chunk). */
  chunks: Uint8Array[];
  bytes: number;
  /** The rest of the body, still to read ("over"); cancelled at the deadline. */
  rest: ReadableStreamDefaultReader<Uint8Array>;
  /** What the body failed with ("failed"). */
  error?: unknown;
}

/**
 * Reads a body until it ends, more than `cap` bytes have come, or the deadline passes, whichever is first: at most
 * `cap` bytes plus one chunk are held. Past the bound the reader is left open for the caller.
 */
export async function readPrefix(body: ReadableStream<Uint8Array>, cap: number, deadline: Deadline): Promise<BodyPrefix> {
  const reader = body.getReader();
  const prefix: BodyPrefix = { end: "ended", chunks: [], bytes: 0, rest: reader };
  const read = async (): Promise<BodyEnd> => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return "ended";
      prefix.chunks.push(value);
      prefix.bytes += value.byteLength;
      if (prefix.bytes > cap) return "over";
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), deadline.remainingMs())));
  try {
    prefix.end = await Promise.race([read(), expired]);
  } catch (error) {
    prefix.end = "failed";
    prefix.error = error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (prefix.end === "timeout") await reader.cancel().catch(() => undefined);
  return prefix;
}

// One decoder for every answer: a decode() without { stream: true } keeps no state between calls, failed ones included.
const EXACT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The bytes as text when they are UTF-8 that encodes back to the same bytes (a byte order mark is kept as text);
 * undefined for anything else, which must then go on as bytes.
 */
export function exactText(bytes: Uint8Array): string | undefined {
  try {
    return EXACT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A body that gives the chunks already read, then the rest from the reader; cancelling it cancels the reader. */
export function resumed(chunks: Uint8Array[], rest: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < chunks.length) return controller.enqueue(chunks[next++]!);
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest.cancel(reason),
  });
}
