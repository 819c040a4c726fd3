/** What the journal cannot tell of a client under a Retry-After of 600 s or more (long-retry-after-not-slept). */
export const LONG_WAIT_CANNOT_TELL =
  "whether a client that sent no resend of the call, and did not end its MCP session (a DELETE; 2026-07-28 has none), surfaced a wait of 600 s or more or is still sleeping on it, until the journal runs past the wait; nor whether a resend after the wait came from a person rather than the client";
