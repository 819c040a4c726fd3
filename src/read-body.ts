/** The largest request body read, in bytes (1 MiB): MCP requests and /classify. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a request body as UTF-8 text, refusing more than `limit` bytes: by the declared Content-Length first, then by
 * counting while reading, since a chunked upload declares none. Undefined when the body is too large.
 */
export async function readCapped(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return undefined;
  if (!request.body) return "";

  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
