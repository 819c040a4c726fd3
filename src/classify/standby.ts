import { SpecRef } from "./findings.ts";
import { advice } from "./retry.ts";
import { verdict } from "./run.ts";
import type { Run } from "./run.ts";
import type { Verdict } from "./verdict.ts";
import { isModern } from "./version.ts";

// 2025-11-25 transports, "Listening for Messages from the Server": a GET either opens an SSE stream or is answered
// 405; the stream carries server requests and notifications, and a response only when it resumes an earlier stream.
const LISTENING = SpecRef.s1125Listening;

/** True when a 2xx GET is a resumption (Last-Event-ID) whose stream holds the awaited response: judged as that answer. */
export function isResumedAnswer(run: Run, lastEventId: string | undefined): boolean {
  const stream = run.stream;
  return lastEventId !== undefined && stream !== undefined && (stream.matched.length > 0 || stream.idless.length > 0);
}

/** A 2xx answer to a GET: the standby stream the client listens on, which has no response to wait for. */
export function standbyStream(run: Run): Verdict {
  const { findings, stream, status } = run;
  if (run.decoded.transport === "empty") {
    findings.warning(
      "GET_WITHOUT_STREAM",
      `The GET was answered ${status} with no body; a server MUST either open a text/event-stream or answer 405. Treat it as 405 anyway: the server offers no standby stream, so do not reopen it.`,
      LISTENING,
    );
    return verdict(run, "INVALID_ENVELOPE", advice("do-not-retry", "The server offers no standby stream (an empty 2xx to GET, read as 405); do not reopen it."));
  }
  if (stream === undefined) {
    findings.error("GET_NOT_EVENT_STREAM", "The GET was answered with a body that is not text/event-stream; a GET opens an SSE stream or gets 405.", LISTENING);
    return verdict(run, "INVALID_ENVELOPE", advice("investigate", "The server answered the GET stream with something other than an event stream."));
  }
  if (stream.matched.length > 0) {
    findings.error("GET_STREAM_RESPONSE", "The GET stream carries a JSON-RPC response without resuming a stream (no Last-Event-ID); the server MUST NOT send responses on it.", LISTENING);
  }
  if (isModern(run.version)) {
    findings.warning("GET_STREAM_2026", "2026-07-28 has no standby GET stream (servers SHOULD answer GET with 405); updates come through subscriptions/listen.", SpecRef.s26Receiving);
  }
  return verdict(run, "STREAM_OPEN", advice("none", "The server opened the standby stream; it stays open and carries server messages, so its end is not a lost response. Reopen it with GET (and Last-Event-ID when it set event ids) if it closes."));
}

/** A 2xx answer to a DELETE: the session is over (2025-11-25 transports, session management). */
export function sessionEnded(run: Run): Verdict {
  if (run.decoded.transport !== "empty") run.findings.info("DELETE_HAS_BODY", `The DELETE was answered ${run.status} with a body; nothing is expected in it.`, SpecRef.s1125Sessions);
  return verdict(run, "SESSION_ENDED", advice("none", "The server ended the session. Start a new one with initialize (without a session id) before sending more requests."));
}
