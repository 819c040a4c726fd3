/** The authorization server's tables (OAuthStore), created by the session's migrations (src/session/layouts.ts). */
export const OAUTH_TABLES = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id TEXT PRIMARY KEY, redirect_uris TEXT NOT NULL, client_name TEXT, via TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_codes (
  key TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, challenge TEXT NOT NULL, scope TEXT NOT NULL,
  resource TEXT NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0, family TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_tokens (
  key TEXT PRIMARY KEY, kind TEXT NOT NULL, client_id TEXT NOT NULL, scope TEXT NOT NULL, resource TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0, family TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, grant_type TEXT NOT NULL, scope TEXT NOT NULL, outcome TEXT NOT NULL);
`;

/** Requests to the endpoints of a session running auth.server_faults (a later migration: src/session/layouts.ts). */
export const OAUTH_REQUESTS_TABLE = `
CREATE TABLE IF NOT EXISTS oauth_requests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, end_at INTEGER NOT NULL, endpoint TEXT NOT NULL,
  status INTEGER NOT NULL, fault TEXT, retry_after INTEGER);
`;
