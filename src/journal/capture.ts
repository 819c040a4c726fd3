import { TRUNCATION_MARKER, type CapturedBody } from "./entry.ts";

/** Characters kept per body in the journal; the rest is cut with a visible marker. */
export const DEFAULT_BODY_CAP = 64 * 1024;
/** Bytes read for the verdict, so a long body is still judged whole. */
const CLASSIFY_CAP = 1024 * 1024;

/** The text, or its first `cap` characters followed by the marker. */
export function cut(text: string, cap: number): string {
  return text.length <= cap ? text : text.slice(0, cap) + TRUNCATION_MARKER;
}

export function capture(text: string, bytes: number, cap: number): CapturedBody {
  return { text: cut(text, cap), bytes, truncated: text.length > cap };
}

/** The length of a text in UTF-8 (as TextEncoder would encode it: a lone surrogate as U+FFFD), without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 2 code units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** What a client was sent of a streamed body, as the relay handed it over. */
export interface Relayed {
  /** Bytes handed to the client. */
  bytes: number;
  /** Date.now() when the client went away (cancelled the stream) before the body ended. */
  clientClosedAt?: number;
  /** The source failed midway. */
  aborted: boolean;
  /** The relay ended the stream itself, at `stopAt`: the client had not read it to its end by then. */
  stopped: boolean;
}

/**
 * A pass-through that the client's reading paces: one chunk is read from the source for each read of the client (no
 * queue: high-water mark 0) and handed to the client and to `copy`. So what copies the body holds at most what `copy`
 * keeps, however long the client does not read and however much the source could send (a tee reads as fast as its
 * fastest branch and queues the rest for the slow one, without bound). `ended` resolves once the body ended, failed,
 * or the client went away, with what the client was sent. At `stopAt` (epoch ms) a body still open is ended: the
 * response deadline, for a client that stopped reading, so the exchange is journalled and its source released.
 */
export function relay(source: ReadableStream<Uint8Array>, copy: (chunk: Uint8Array) => void, stopAt?: number): { stream: ReadableStream<Uint8Array>; ended: Promise<Relayed> } {
  const reader = source.getReader();
  const result: Relayed = { bytes: 0, aborted: false, stopped: false };
  let finish: () => void = () => undefined;
  const ended = new Promise<Relayed>((resolve) => (finish = () => resolve(result)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const end = () => {
    if (done) return false;
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    finish();
    return true;
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (stopAt === undefined) return;
        timer = setTimeout(() => {
          if (!end()) return;
          result.stopped = true;
          reader.cancel("response deadline").catch(() => undefined);
          controller.close();
        }, Math.max(0, stopAt - Date.now()));
      },
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (!end()) return;
          result.aborted = true;
          controller.error(error);
          return;
        }
        if (done) return;
        if (chunk.done) {
          end();
          controller.close();
          return;
        }
        result.bytes += chunk.value.byteLength;
        copy(chunk.value);
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        if (!end()) return;
        result.clientClosedAt = Date.now();
        return reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, ended };
}

/** A text copy of a body, kept up to `cap` characters (plus at most one chunk), for the verdict. */
export function textCopy(cap = CLASSIFY_CAP): { add(chunk: Uint8Array): void; text(): string; whole(): boolean } {
  const decoder = new TextDecoder();
  let text = "";
  let full = false;
  let dropped = false;
  return {
    add(chunk) {
      if (full) {
        dropped = true;
        return;
      }
      text += decoder.decode(chunk, { stream: true });
      full = text.length >= cap;
    },
    text() {
      if (!full) text += decoder.decode();
      full = true;
      return text;
    },
    whole: () => !dropped,
  };
}
