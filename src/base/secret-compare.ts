/**
 * Comparing a presented secret with the expected one without leaking, through timing, how much of it matched.
 * Both sides are first HMAC'd under a random key made once per isolate, so the bytes compared are fixed-length
 * digests the caller cannot choose; they are then compared with workerd's `crypto.subtle.timingSafeEqual`, or,
 * where that does not exist (Node, in the tests), with a loop that reads every byte whatever it finds.
 */

const encoder = new TextEncoder();
let keyPromise: Promise<CryptoKey> | undefined;

function compareKey(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]) as Promise<CryptoKey>;
  return keyPromise;
}

async function digest(key: CryptoKey, value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(value)));
}

type TimingSafe = { timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean };

/** Every byte is read whatever the earlier ones were; the digests always have the same length. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** True when `presented` equals `expected`, compared in constant time. */
export async function secretsEqual(presented: string, expected: string): Promise<boolean> {
  const key = await compareKey();
  const [a, b] = await Promise.all([digest(key, presented), digest(key, expected)]);
  const native = (crypto.subtle as unknown as TimingSafe).timingSafeEqual;
  return native ? native.call(crypto.subtle, a, b) : equalBytes(a, b);
}

/** HMAC-SHA-256 of `message` under `secret`, base64url: derives values (a login cookie) that do not reveal the secret. */
export async function hmacBase64Url(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return btoa(String.fromCharCode(...mac)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
