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

/** Reads a stream to the end, keeping up to CLASSIFY_CAP bytes of text; never throws. */
export async function drain(stream: ReadableStream<Uint8Array> | null): Promise<{ text: string; bytes: number; aborted: boolean }> {
  if (!stream) return { text: "", bytes: 0, aborted: false };
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (text.length < CLASSIFY_CAP) text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
    return { text, bytes, aborted: false };
  } catch {
    return { text, bytes, aborted: true };
  }
}
