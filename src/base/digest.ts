import { createHmac } from "node:crypto";

/**
 * HMAC-SHA-256 (RFC 2104) of a text under a key, as lower-case hex: the call digests the journal and the recordings
 * store, and the OAuth store's token keys. Synchronous, because the journal's append is; node:crypto's HMAC is native
 * in workerd (nodejs_compat), Node and Deno, where a JavaScript SHA-256 cost a tenth of a tools/call's CPU time.
 * The key is per session, so a digest of params holding a weak password cannot be looked up in a precomputed table.
 */
export function hmacHex(key: Uint8Array, text: string): string {
  return createHmac("sha256", key).update(text).digest("hex");
}
