/**
 * Every check's id, each with what it judges in a few words: the one list that scenarios name in `judging.checks`,
 * that the check families emit (summarize takes a CheckId) and that the docs' scenario → checks table reads.
 * test/checks/ids.test.ts holds each id to a family that emits it.
 */
export const CHECK_IDS = {
  "http-retry-after-honoured": "a retry after 408, 429 or 5xx waited as Retry-After asked",
  "http-retry-backoff": "a retry after a failure without Retry-After backed off",
  "http-retry-bounded": "retries of one call stopped within a bound",
  "non-idempotent-not-replayed": "a failed call of a tool that is not idempotent was not resent blindly",
  "mrtr-same-request": "an input_required result was answered by the same request, with the inputs",
  "mrtr-new-request-id": "the answering request has a new JSON-RPC id",
  "mrtr-request-state-echoed": "the requestState came back unchanged",
  "mrtr-input-responses-complete": "every input request was answered",
  "invalid-params-fixed": "a call refused with -32602 was not resent unchanged",
  "session-reinitialized": "after a legacy session ended (404, 410, or a 400 or 401 naming the session) the client initialized again, without the dead id",
  "version-renegotiated": "after an unsupported-version error the client used a version the server listed",
  "stream-resumed": "a cut SSE stream was resumed with Last-Event-ID",
  "stream-retry-honoured": "the resumption waited as the stream's retry field asked",
  "cut-call-resent": "a call whose stream was cut was not resent while it could be resumed",
  "request-after-cut": "what the client sent after a stream was cut",
  "auth-bounded-attempts": "401 answers did not start a loop of attempts",
  "auth-refreshed-on-expiry": "an expired token was refreshed before the call was sent again",
  "auth-step-up-scope": "a 403 insufficient_scope led to a token with the scope asked for",
  "timeout-client-bounded": "the client ended a stalled or endless exchange itself, within a bound",
  "timeout-cancelled": "a request the client abandoned was cancelled as its era asks",
  "bad-answer-handled": "after an unreadable or malformed answer the client did not resend a call blindly",
  "session-id-refusal-handled": "after a 400 for a missing Mcp-Session-Id the client resent with its id or initialized again",
  "tools-relisted-after-change": "after tools/list_changed the client listed the tools before calling one that changed",
  "cursor-not-looped": "a refused or looping cursor did not start an endless walk",
  "elicitation-answered": "an elicitation request was answered with a result the client's capabilities promised",
  "method-not-found-not-repeated": "a method answered -32601 was not called again and again",
  "progress-token-sent": "a long-running call carried a progressToken, so the client can tell a slow tool from a dead one",
  "progress-patience": "the client did not abandon a call while its progress kept arriving, before the session's patience",
  "progress-bounded": "progress or not, the client gave up on a long call by the session's bound",
  "task-poll-interval-honoured": "each tasks/get came no sooner than the pollIntervalMs the previous answer asked",
  "task-polled-to-terminal": "a task was polled until a terminal status, and not polled on after it",
  "task-not-polled-after-cancel": "after its own tasks/cancel the client stopped polling the task",
  "task-mcp-name-sent": "every tasks/* request carried Mcp-Name equal to params.taskId",
  "task-polling-bounded": "a task the server no longer knows (-32602) was not polled forever",
  "task-input-key-answered-once": "each inputRequests key of a task was answered by one acknowledged tasks/update, not again when a later tasks/get still showed it",
} as const satisfies Record<string, string>;

export type CheckId = keyof typeof CHECK_IDS;
