/**
 * When an answer to a legacy request that carried Mcp-Session-Id can soundly be read as "this session is gone, start
 * a new one": the one reading the classifier's advice and the session-reinitialized check share. 2025-11-25 asks for
 * 404; servers in the field also answer 400 -32000 "Bad Request: No valid session ID provided" (the SDK's example
 * servers), 410, and 401 "Session not found" without an auth challenge. A 401 that challenges for a Bearer token is
 * about the token, never the session; a 409, or a 400 or 401 that says nothing of the session, is not read as one.
 */
export type SessionGoneReading = "not_found" | "gone" | "unknown_session_400" | "unknown_session_401";

/** -32601 with 404 names an unknown method, not an unknown session. */
const METHOD_NOT_FOUND = -32601;

/** The body's JSON-RPC error says the session is unknown, expired or invalid. */
export function saysSessionUnknown(message: string | undefined): boolean {
  return message !== undefined && /session/i.test(message) && /not found|unknown|no valid|invalid|expired|terminated|no longer/i.test(message);
}

/** A WWW-Authenticate that challenges for a Bearer token. */
export function challengesBearer(wwwAuthenticate: string | undefined): boolean {
  return wwwAuthenticate !== undefined && /(^|,)\s*bearer\b/i.test(wwwAuthenticate);
}

export interface SessionAnswer {
  status: number;
  /** The JSON-RPC error of the body, when it has one. */
  error?: { code?: number; message?: string };
  wwwAuthenticate?: string;
}

/** How the answer reads as "session gone", or undefined when it cannot soundly be read so. */
export function sessionGoneReading({ status, error, wwwAuthenticate }: SessionAnswer): SessionGoneReading | undefined {
  if (status === 404) return error?.code === METHOD_NOT_FOUND ? undefined : "not_found";
  if (status === 410) return "gone";
  if (status === 400 && saysSessionUnknown(error?.message)) return "unknown_session_400";
  if (status === 401 && !challengesBearer(wwwAuthenticate) && saysSessionUnknown(error?.message)) return "unknown_session_401";
  return undefined;
}
