/** The shapes the store keeps that modules outside the Durable Object read (no SQLite types here). */

export interface ClientRow {
  clientId: string;
  redirectUris: string[];
  clientName?: string;
  via: "cimd" | "dcr";
}

/** One answered token request, as the checks read it. */
export interface GrantEvent {
  at: number;
  grantType: string;
  scope: string;
  /** "issued", or the OAuth error code of the refusal. */
  outcome: string;
  /**
   * A refresh_token grant: the HMAC (store.keyOf) of the refresh token it presented, so two grants presenting the same
   * one are told apart from two grants presenting two. Compared only; never shown (it stands for a secret).
   */
  presented?: string;
}

/** One request to an endpoint of a session running auth.server_faults, as the checks read it. */
export interface EndpointRequest {
  /** When it came and when it was answered (ms). */
  at: number;
  end: number;
  /** token, register or metadata. */
  endpoint: string;
  status: number;
  /** The fault it got ("5xx", "429", "slow", "flap"), absent when it got the real answer at once. */
  fault?: string;
  /** 429: the Retry-After seconds it was answered with. */
  retryAfter?: number;
}
