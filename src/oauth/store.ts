import { hmacHex } from "../base/digest.ts";
import type { ClientRow, EndpointRequest, GrantEvent } from "./records.ts";

export type { ClientRow, EndpointRequest, GrantEvent };

/**
 * Clients kept per session (bounded storage). Registering past it forgets a client that never got a token, the
 * oldest first, so anonymous registrations only push out one another; only when every client has got one is the
 * least recently used forgotten, which takes a whole authorization flow per client to bring about.
 */
export const MAX_CLIENTS = 200;
/** Token-endpoint events kept for the checks; requests to a faulted endpoint too. */
export const MAX_EVENTS = 500;


export interface CodeRow {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  resource: string;
  expiresAt: number;
  used: boolean;
  family: string;
}

export interface TokenRow {
  kind: "access" | "refresh";
  clientId: string;
  scope: string;
  resource: string;
  expiresAt: number;
  used: boolean;
  revoked: boolean;
  family: string;
}


/** A random secret of `bytes` bytes, base64url without padding, after a readable prefix. */
export function secret(prefix: string, bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return prefix + btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** What of a Durable Object's `ctx.storage.sql` the store uses: structural, so node:sqlite stands in for it in tests. */
export interface OAuthSql {
  exec<T extends Record<string, ArrayBuffer | string | number | null>>(query: string, ...bindings: unknown[]): { toArray(): T[]; rowsWritten: number };
}

/**
 * One session's authorization server state, in the session's SQLite. Codes and tokens are stored under an HMAC of
 * their value (per-session random key), never as themselves, and the same HMAC names the counters a scenario keeps
 * per token, so nothing derived from a secret by a public function is ever stored or shown (issue 10). Its tables
 * (tables.ts) are created once by the session's migrations (src/session/layouts.ts), never by a store or a request.
 */
export class OAuthStore {
  private readonly sql: OAuthSql;
  private readonly key: Uint8Array;

  constructor(sql: OAuthSql) {
    this.sql = sql;
    this.key = loadKey(sql);
  }

  /** The HMAC (hex) that stands for a code or token in storage and in counter names. */
  keyOf(value: string): string {
    return hmacHex(this.key, value);
  }

  client(clientId: string): ClientRow | undefined {
    const row = this.sql
      .exec<{ client_id: string; redirect_uris: string; client_name: string | null; via: string }>("SELECT client_id, redirect_uris, client_name, via FROM oauth_clients WHERE client_id = ?", clientId)
      .toArray()[0];
    if (!row) return undefined;
    return { clientId: row.client_id, redirectUris: JSON.parse(row.redirect_uris) as string[], via: row.via as ClientRow["via"], ...(row.client_name ? { clientName: row.client_name } : {}) };
  }

  /** Saves a client (a metadata document fetched again keeps its last use), then forgets past MAX_CLIENTS. */
  saveClient(client: ClientRow, now: number): void {
    this.sql.exec(
      `INSERT INTO oauth_clients (client_id, redirect_uris, client_name, via, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (client_id) DO UPDATE SET redirect_uris = excluded.redirect_uris, client_name = excluded.client_name, via = excluded.via`,
      client.clientId, JSON.stringify(client.redirectUris), client.clientName ?? null, client.via, now,
    );
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM oauth_clients").toArray()[0]!.n;
    if (count <= MAX_CLIENTS) return;
    // Never-used clients first (used_at IS NULL sorts as 0), oldest registration first; then the least recently used.
    this.sql.exec(
      `DELETE FROM oauth_clients WHERE client_id IN (SELECT client_id FROM oauth_clients WHERE client_id != ?
       ORDER BY used_at IS NOT NULL, COALESCE(used_at, created_at), rowid LIMIT ?)`,
      client.clientId, count - MAX_CLIENTS,
    );
  }

  /** Records that a token was issued to the client: it is no longer one that registrations may push out first. */
  markClientUsed(clientId: string, now: number): void {
    this.sql.exec("UPDATE oauth_clients SET used_at = ? WHERE client_id = ?", now, clientId);
  }

  saveCode(code: string, row: Omit<CodeRow, "used">): void {
    this.sql.exec(
      "INSERT INTO oauth_codes (key, client_id, redirect_uri, challenge, scope, resource, expires_at, family) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      this.keyOf(code), row.clientId, row.redirectUri, row.challenge, row.scope, row.resource, row.expiresAt, row.family,
    );
  }

  /** Marks the code used and returns it as it was before (so a second use is seen as such), or undefined. */
  takeCode(code: string): CodeRow | undefined {
    const key = this.keyOf(code);
    const row = this.sql
      .exec<{ client_id: string; redirect_uri: string; challenge: string; scope: string; resource: string; expires_at: number; used: number; family: string }>(
        "SELECT client_id, redirect_uri, challenge, scope, resource, expires_at, used, family FROM oauth_codes WHERE key = ?",
        key,
      )
      .toArray()[0];
    if (!row) return undefined;
    this.sql.exec("UPDATE oauth_codes SET used = 1 WHERE key = ?", key);
    return {
      clientId: row.client_id, redirectUri: row.redirect_uri, challenge: row.challenge, scope: row.scope,
      resource: row.resource, expiresAt: row.expires_at, used: row.used === 1, family: row.family,
    };
  }

  saveToken(token: string, row: Omit<TokenRow, "used" | "revoked">): void {
    this.sql.exec(
      "INSERT INTO oauth_tokens (key, kind, client_id, scope, resource, expires_at, family) VALUES (?, ?, ?, ?, ?, ?, ?)",
      this.keyOf(token), row.kind, row.clientId, row.scope, row.resource, row.expiresAt, row.family,
    );
  }

  token(token: string): TokenRow | undefined {
    return this.tokenByKey(this.keyOf(token));
  }

  tokenByKey(key: string): TokenRow | undefined {
    const row = this.sql
      .exec<{ kind: string; client_id: string; scope: string; resource: string; expires_at: number; used: number; revoked: number; family: string }>(
        "SELECT kind, client_id, scope, resource, expires_at, used, revoked, family FROM oauth_tokens WHERE key = ?",
        key,
      )
      .toArray()[0];
    if (!row) return undefined;
    return {
      kind: row.kind as TokenRow["kind"], clientId: row.client_id, scope: row.scope, resource: row.resource,
      expiresAt: row.expires_at, used: row.used === 1, revoked: row.revoked === 1, family: row.family,
    };
  }

  /** Marks a refresh token used (rotation): true when it was not used before. */
  useRefresh(token: string): boolean {
    return this.sql.exec("UPDATE oauth_tokens SET used = 1 WHERE key = ? AND used = 0", this.keyOf(token)).rowsWritten > 0;
  }

  /** Revokes every token of one grant (a reused code or refresh token means one of them leaked: OAuth 2.1 §4.3.1). */
  revokeFamily(family: string): void {
    this.sql.exec("UPDATE oauth_tokens SET revoked = 1 WHERE family = ?", family);
  }


  /** Drops codes and tokens that can no longer be used, so storage holds only live grants. */
  prune(now: number): void {
    // Kept a day past expiry, so a late reuse is still recognised (and refused as reuse) for a while.
    const before = now - 86_400_000;
    this.sql.exec("DELETE FROM oauth_codes WHERE expires_at < ?", before);
    this.sql.exec("DELETE FROM oauth_tokens WHERE expires_at < ?", before);
  }

  recordEvent(event: GrantEvent): void {
    this.sql.exec(
      "INSERT INTO oauth_events (at, grant_type, scope, outcome, presented) VALUES (?, ?, ?, ?, ?)",
      event.at, event.grantType, event.scope, event.outcome, event.presented ?? null,
    );
    this.sql.exec("DELETE FROM oauth_events WHERE seq <= (SELECT MAX(seq) FROM oauth_events) - ?", MAX_EVENTS);
  }

  /** Counts a request to an endpoint (auth.server_faults) and returns its number, from 1. */
  countRequest(endpoint: string): number {
    const k = `oauth-requests:${endpoint}`;
    return this.sql.exec<{ n: number }>("INSERT INTO counters (k, n) VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = n + 1 RETURNING n", k).toArray()[0]!.n;
  }

  recordRequest(r: EndpointRequest): void {
    this.sql.exec(
      "INSERT INTO oauth_requests (at, end_at, endpoint, status, fault, retry_after) VALUES (?, ?, ?, ?, ?, ?)",
      r.at, r.end, r.endpoint, r.status, r.fault ?? null, r.retryAfter ?? null,
    );
    this.sql.exec("DELETE FROM oauth_requests WHERE seq <= (SELECT MAX(seq) FROM oauth_requests) - ?", MAX_EVENTS);
  }

  /** In the order they came (a slow answer is recorded when it is sent, after requests that came later). */
  requests(since: number): EndpointRequest[] {
    return this.sql
      .exec<{ at: number; end_at: number; endpoint: string; status: number; fault: string | null; retry_after: number | null }>(
        "SELECT at, end_at, endpoint, status, fault, retry_after FROM oauth_requests WHERE at >= ? ORDER BY at, seq",
        since,
      )
      .toArray()
      .map((r) => ({ at: r.at, end: r.end_at, endpoint: r.endpoint, status: r.status, ...(r.fault ? { fault: r.fault } : {}), ...(r.retry_after !== null ? { retryAfter: r.retry_after } : {}) }));
  }

  events(since: number): GrantEvent[] {
    return this.sql
      .exec<{ at: number; grant_type: string; scope: string; outcome: string; presented: string | null }>(
        "SELECT at, grant_type, scope, outcome, presented FROM oauth_events WHERE at >= ? ORDER BY seq",
        since,
      )
      .toArray()
      .map((r) => ({ at: r.at, grantType: r.grant_type, scope: r.scope, outcome: r.outcome, ...(r.presented ? { presented: r.presented } : {}) }));
  }
}

function loadKey(sql: OAuthSql): Uint8Array {
  const row = sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'oauth-key'").toArray()[0];
  if (row) return Uint8Array.from(row.v.match(/../g)!, (h) => parseInt(h, 16));
  const raw = crypto.getRandomValues(new Uint8Array(32));
  sql.exec("INSERT INTO config (k, v) VALUES ('oauth-key', ?)", Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join(""));
  return raw;
}
