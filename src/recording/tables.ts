/** A session's recording and a replay's loaded copy (RecordingStore), created by the session's migrations (src/session/layouts.ts). */
export const RECORDING_TABLES = `
CREATE TABLE IF NOT EXISTS recording (seq INTEGER PRIMARY KEY AUTOINCREMENT, exchange TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS recording_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS replay (seq INTEGER PRIMARY KEY, method TEXT NOT NULL, digest TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0, exchange TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS replay_match ON replay (method, digest, used, seq);
CREATE TABLE IF NOT EXISTS replay_state (token TEXT PRIMARY KEY, seq INTEGER NOT NULL);
`;
