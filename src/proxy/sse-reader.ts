import { parseSse } from "../classify/index.ts";
import type { Deadline } from "../wire/deadline.ts";

/** Why a read of an upstream's stream stopped: its end, the byte limit, or the response deadline. */
export type SseEnd = "ended" | "too_long" | "deadline";

export interface SseRead {
  /** The data of each event, as it arrives. */
  messages: AsyncGenerator<string>;
  /** Why the read stopped, once `messages` is done. */
  end(): SseEnd;
}

/**
 * Reads an upstream's SSE body event by event, as the bytes arrive (never the whole body first), so a fault that
 * alters a stream still passes the upstream's notifications on when they come. Only the `data` of each event is kept
 * (the MCP message). At most `maxBytes` of the body are read in all, so an endless stream is not read without end:
 * the chunk that would go past them is not taken (`seen` never gets it) and the read ends, as it does at the
 * deadline and at the end of the body. The upstream's body is cancelled whenever the read stops, also when the
 * reader of `messages` stops early.
 */
export function sseMessages(body: ReadableStream<Uint8Array>, limits: { maxBytes: number; deadline: Deadline }, seen: (text: string) => void): SseRead {
  let end: SseEnd = "ended";
  async function* messages(): AsyncGenerator<string> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const expiry = expiring(limits.deadline.remainingMs());
    let buffer = "";
    let bytes = 0;
    try {
      for (;;) {
        const read = await Promise.race([reader.read(), expiry.expired]);
        if (read === "deadline") {
          end = "deadline";
          return;
        }
        if (read.done) break;
        bytes += read.value.byteLength;
        if (bytes > limits.maxBytes) {
          end = "too_long";
          return;
        }
        const text = decoder.decode(read.value, { stream: true });
        seen(text);
        buffer += text.replace(/\r\n?/g, "\n");
        let at: number;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          const data = dataOf(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
          if (data !== undefined) yield data;
        }
      }
      const data = dataOf(buffer);
      if (data !== undefined) yield data;
    } finally {
      expiry.clear();
      await reader.cancel().catch(() => undefined);
    }
  }
  return { messages: messages(), end: () => end };
}

/** A promise that resolves to "deadline" after `ms`, and the means to stop its timer. */
function expiring(ms: number): { expired: Promise<"deadline">; clear(): void } {
  let expire: (value: "deadline") => void = () => undefined;
  const expired = new Promise<"deadline">((resolve) => (expire = resolve));
  const timer = setTimeout(() => expire("deadline"), ms);
  return { expired, clear: () => clearTimeout(timer) };
}

/** The data of one event block (WHATWG SSE, read by the classifier's parser), or undefined for a comment or an event with no data. */
function dataOf(block: string): string | undefined {
  const event = parseSse(`${block}\n\n`).events[0];
  return event?.hasData && event.data !== "" ? event.data : undefined;
}
