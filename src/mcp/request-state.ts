import { callParams, canonical } from "./call-params.ts";

/** HMAC-signed requestState for input_required round trips, bound to the method, a params digest and an expiry. */

export interface StateClaims {
  /** JSON-RPC method of the original request. */
  m: string;
  /** SHA-256 (base64url) of the original params, less _meta, inputResponses and requestState. */
  d: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** The input request keys asked for. */
  k: string[];
}

const encoder = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromB64url(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function paramsDigest(params: Record<string, unknown> | undefined): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(canonical(callParams(params ?? {}))));
  return b64url(new Uint8Array(digest));
}

export async function importKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function signState(key: CryptoKey, claims: StateClaims): Promise<string> {
  const payload = b64url(encoder.encode(JSON.stringify(claims)));
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)));
  return `v1.${payload}.${b64url(signature)}`;
}

export type StateCheck = { ok: true; claims: StateClaims } | { ok: false; reason: string };

export async function verifyState(
  key: CryptoKey,
  state: string,
  expected: { method: string; digest: string; now: number },
): Promise<StateCheck> {
  const [version, payload, signature] = state.split(".");
  if (version !== "v1" || !payload || !signature) return { ok: false, reason: "requestState is not in the format this server issued" };
  let valid = false;
  try {
    const signatureBytes = fromB64url(signature);
    // Base64 has spare bits in its last character: a changed character can decode to the same bytes.
    // Only the exact string this server issued is accepted, as clients MUST echo it unmodified.
    valid = b64url(signatureBytes) === signature && (await crypto.subtle.verify("HMAC", key, signatureBytes, encoder.encode(payload)));
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: "requestState signature does not verify (tampered or from another session)" };
  const claims = JSON.parse(new TextDecoder().decode(fromB64url(payload))) as StateClaims;
  if (claims.m !== expected.method) return { ok: false, reason: `requestState was issued for ${claims.m}, not ${expected.method}` };
  if (claims.d !== expected.digest) return { ok: false, reason: "requestState was issued for different params" };
  if (claims.exp < expected.now) return { ok: false, reason: "requestState has expired" };
  return { ok: true, claims };
}
