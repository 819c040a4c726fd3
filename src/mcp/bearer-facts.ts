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
