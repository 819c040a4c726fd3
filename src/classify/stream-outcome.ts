import { SpecRef } from "./findings.ts";
import { show } from "./json.ts";
import { fromMessage } from "./message.ts";
import { advice, conditional } from "./retry.ts";
import { responseId, verdict } from "./run.ts";
import type { Run } from "./run.ts";
import type { RetryAdvice, Verdict } from "./verdict.ts";
import { isModern } from "./version.ts";

/** The outcome of an SSE response: the one matching response, or why there is none. */
export function fromStream(run: Run): Verdict {
  const stream = run.stream;
  if (stream === undefined) return verdict(run, "STREAM_INCOMPLETE", conditional("The stream could not be read."));
  const { findings, request } = run;
  const investigate = advice("investigate", "The stream does not hold a usable response for this request; the call may have run, so do not replay it blindly.");
  if (stream.matched.length > 1) {
    findings.error(
      "DUPLICATE_RESPONSE",
      `The stream carries ${stream.matched.length} responses for id ${show(stream.matched[0]?.id)}; a request gets exactly one response.`,
      SpecRef.jsonRpcResponse,
    );
    return verdict(run, "INVALID_ENVELOPE", investigate, { id: responseId(stream.matched[0]) });
  }
  const message = stream.matched[0] ?? stream.idless[0];
  if (message !== undefined) return fromMessage(run, message);
  if (stream.malformed.length > 0) return verdict(run, "MALFORMED_JSON", investigate);
  if (stream.batches > 0 || stream.foreignIds.length > 0 || stream.notMessages > 0) return verdict(run, "INVALID_ENVELOPE", investigate);

  const idText = request.expectedId === undefined ? "the request" : `id ${show(request.expectedId)}`;
  // 2025-11-25 SSE polling: after a priming event id a server MAY close the connection without ending the stream.
  const polling = run.version === "2025-11-25" && (stream.priming || stream.sse.lastEventId !== undefined);
  findings.add(
    polling ? "info" : "error",
    "STREAM_ENDED_WITHOUT_RESPONSE",
    `The event stream ended without the JSON-RPC response for ${idText} (${stream.messages} message event(s), ${stream.notifications} notification(s)).`,
    isModern(run.version) ? SpecRef.s26Receiving : SpecRef.s1125Resumability,
  );
  const lastEventId = stream.sse.lastEventId;
  if (isModern(run.version)) {
    if (stream.priming || lastEventId !== undefined) {
      findings.warning(
        "SSE_RESUME_NOT_SUPPORTED",
        "The stream offers an event id to resume from, but 2026-07-28 removed resumable streams: the client MUST re-issue the request as a new request with a new id.",
        SpecRef.s26Changelog,
      );
    }
    return verdict(run, "STREAM_INCOMPLETE", conditional("The response stream broke before the response; in 2026-07-28 the request is lost and MUST be re-issued as a new request with a new JSON-RPC id."));
  }
  const pending = pendingServerRequests(stream.serverRequests);
  if (pending.length > 0) return verdict(run, "STREAM_INCOMPLETE", answerServerRequest(pending, lastEventId));
  if (lastEventId !== undefined) {
    const wait = stream.sse.retryMs;
    findings.info(
      "SSE_RESUMABLE",
      `The stream set event id ${JSON.stringify(lastEventId)}${wait === undefined ? "" : ` and retry ${wait} ms`}: the client may resume with GET and Last-Event-ID: ${JSON.stringify(lastEventId)}${wait === undefined ? "" : ` after waiting ${wait} ms`}.`,
      SpecRef.s1125Resumability,
    );
    const retry: RetryAdvice = {
      decision: "conditional",
      reason: `The stream closed before the response. Resume it with GET and Last-Event-ID: ${JSON.stringify(lastEventId)} (this replays nothing); only if resumption fails, re-send the call, and only if it is read-only or idempotent, at most 2 times with backoff and jitter from 200 ms.`,
      maxAttempts: 2,
      initialBackoffMs: 200,
    };
    if (wait !== undefined) retry.afterMs = wait;
    return verdict(run, "STREAM_INCOMPLETE", retry);
  }
  return verdict(run, "STREAM_INCOMPLETE", conditional("The stream ended before the response and offered no event id to resume from."));
}


type Pending = { method: string; id: string | number };

function pendingServerRequests(requests: { method: string; id: unknown }[]): Pending[] {
  return requests.filter((r): r is Pending => typeof r.id === "string" || Number.isSafeInteger(r.id));
}

// 2025-11-25 transports, "Sending Messages to the Server": the server MAY send its own requests on the response
// stream before the response; the response then waits for the client's answer, POSTed with the request's id. A
// resume or a re-send without that answer waits for the same answer again (or runs the call twice).
function answerServerRequest(pending: Pending[], lastEventId: string | undefined): RetryAdvice {
  const list = pending.map((p) => `${p.method} (id ${show(p.id)})`).join(", ");
  const resume = lastEventId === undefined ? "then wait for the response on a GET stream" : `then resume with GET and Last-Event-ID: ${JSON.stringify(lastEventId)} to read the response`;
  return advice(
    "answer-server-request",
    `The stream closed while the server's own request waits for the client: ${list}. Answer it first (POST a JSON-RPC response with the same id, in the same session), ${resume}; do not re-send the call, which would run it again.`,
    { specRef: SpecRef.s1125Sending, pendingRequests: pending },
  );
}
