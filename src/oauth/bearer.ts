import { bearerToken } from "../scenario-kit/auth.ts";
import type { OAuthStore } from "./store.ts";

/**
 * What an auth scenario may know of the bearer token a request carries, worked out before it decides (its decide()
 * is synchronous). Never the token itself: `key` is an HMAC under the session's random key, so it can name counters
 * that the API shows without telling anything about the token.
 */
export interface BearerFacts {
  key: string;
  /** Issued by this session's authorization server, for this resource, not revoked and not expired. */
  valid: boolean;
  /** The scopes granted with it (empty unless valid). */
  scopes: string[];
}

/** The facts of the request's bearer token, or undefined when it carries none. */
export function bearerFacts(headers: Record<string, string>, store: OAuthStore, resource: string, now: number): BearerFacts | undefined {
  const token = bearerToken(headers);
  if (!token) return undefined;
  const key = store.keyOf(token);
  const row = store.tokenByKey(key);
  const valid = row !== undefined && row.kind === "access" && !row.revoked && row.expiresAt > now && row.resource === resource;
  return { key, valid, scopes: valid ? row.scope.split(" ") : [] };
}
