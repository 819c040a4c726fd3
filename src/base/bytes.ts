/** Chunks read from a body, `bytes` long in all, as one array. */
export function joined(chunks: readonly Uint8Array[], bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
