import { hmacBase64Url, secretsEqual } from "../base/secret-compare.ts";
import type { Role, TokenVars } from "../base/roles.ts";

/**
 * The login cookie: `{role}.{issued}.{nonce}.{mac}`, a fresh random nonce per sign-in and an HMAC-SHA-256 under the
 * role's token over the rest. Stateless to check (no storage read per request), it never holds the token, a new
 * token signs every cookie out, and sign-out revokes the one cookie it is given by putting its nonce on a bounded
 * revocation list until the cookie would have expired anyway.
 */

/** How long a login lasts: a working day. It also bounds how long a revoked cookie lives if a restart forgets the list. */
export const LOGIN_MAX_AGE_SECONDS = 24 * 3600;
/** The most revocations remembered; past it the oldest is dropped and every cookie issued up to it is refused. */
export const REVOKED_MAX = 10_000;

const NONCE_BYTES = 16;
const COOKIE = /^(admin|viewer)\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Revoked nonces with their cookie's issue time (seconds), oldest revocation first. */
const revoked = new Map<string, number>();
/** Cookies issued at or before this second are refused: the list overflowed past one of them. */
let notAfterRevoked = 0;

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function tokenOf(vars: TokenVars, role: Role): string | undefined {
  return role === "admin" ? vars.FAULTLINE_ADMIN_TOKEN : vars.FAULTLINE_VIEWER_TOKEN;
}

function mac(token: string, role: Role, issued: number, id: string): Promise<string> {
  return hmacBase64Url(token, `faultline login cookie v2: ${role}.${issued}.${id}`);
}

/** A new cookie value for a sign-in as `role`, different at every sign-in. */
export async function issueLoginCookie(vars: TokenVars, role: Role, now = Date.now()): Promise<string> {
  const issued = Math.floor(now / 1000);
  const id = nonce();
  const token = tokenOf(vars, role);
  if (!token) throw new Error(`no token is set for the ${role} role`);
  return `${role}.${issued}.${id}.${await mac(token, role, issued, id)}`;
}

interface Parsed {
  role: Role;
  issued: number;
  nonce: string;
}

/** The cookie's contents if its MAC is right and it is neither expired nor revoked, else undefined. */
export async function checkLoginCookie(vars: TokenVars, value: string, now = Date.now()): Promise<Parsed | undefined> {
  const m = COOKIE.exec(value);
  if (!m) return undefined;
  const role = m[1] as Role;
  const issued = Number(m[2]);
  const token = tokenOf(vars, role);
  if (!token) return undefined;
  const age = now / 1000 - issued;
  if (age < -60 || age > LOGIN_MAX_AGE_SECONDS) return undefined;
  if (!(await secretsEqual(m[4]!, await mac(token, role, issued, m[3]!)))) return undefined;
  if (issued <= notAfterRevoked || revoked.has(m[3]!)) return undefined;
  return { role, issued, nonce: m[3]! };
}

/** Signs out one cookie: its nonce stays refused until the cookie would have expired. */
export async function revokeLoginCookie(vars: TokenVars, value: string, now = Date.now()): Promise<boolean> {
  const cookie = await checkLoginCookie(vars, value, now);
  if (!cookie) return false;
  const oldest = now / 1000 - LOGIN_MAX_AGE_SECONDS;
  for (const [id, issued] of revoked) if (issued < oldest) revoked.delete(id);
  while (revoked.size >= REVOKED_MAX) {
    const [id, issued] = revoked.entries().next().value as [string, number];
    revoked.delete(id);
    notAfterRevoked = Math.max(notAfterRevoked, issued);
  }
  revoked.set(cookie.nonce, cookie.issued);
  return true;
}

/** How many revocations are remembered (for the bound's test). */
export function revokedCount(): number {
  return revoked.size;
}
