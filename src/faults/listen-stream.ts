import type { Fault } from "./schema.ts";
import { openStream, primingEvent, sseEvent, SSE_HEADERS, type StreamWriter } from "../wire/sse.ts";
import { resultMessage, type RequestId } from "../wire/jsonrpc.ts";
import { META, SERVER_INFO, SUBSCRIPTION_ID } from "../wire/versions.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { Era } from "../wire/versions.ts";
import { sleep } from "../base/sleep.ts";

/** How long after its last event a dropped stream is aborted. */
const DROP_PAUSE_MS = 100;

type ListenStream = Extract<Fault, { kind: "listen_stream" }>;

/**
 * A stream that ends the way the fault says: a standalone GET stream (2025-11-25 transports, "Listening for Messages
 * from the Server") or a subscriptions/listen stream (2026-07-28 subscriptions.mdx). Event ids are fresh per stream (a
 * random prefix and a counter), since 2025-11-25 asks them to be unique across every stream of the session; the journal
 * keeps the ids sent, which is what the reconnect checks compare. The end is graceful, or an abort of the body.
 */
export function listenStreamResponse(fault: ListenStream, input: { era: Era; requestId: RequestId | undefined; waitUntil: (p: Promise<unknown>) => void; deadline: Deadline; headers?: Record<string, string> }): Response {
  const readable = openStream({ waitUntil: input.waitUntil, deadline: input.deadline, sse: true }, async (out) => {
    if (input.era === "modern" && input.requestId !== undefined) await listenEvents(fault, input.requestId, out);
    else await getEvents(fault, out);
    if (fault.close === "drop") {
      // workerd discards what it has not yet sent once a body errors: the pause lets the last event reach the client
      // (and so the journal's copy match what the client got) before the connection goes.
      await sleep(DROP_PAUSE_MS);
      await out.abort();
    }
  });
  return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...input.headers } });
}

/** Legacy: the priming event, then one notifications/message per event, with an id, without, or with an empty `id:`. */
async function getEvents(fault: ListenStream, out: StreamWriter): Promise<void> {
  const prefix = crypto.randomUUID().slice(0, 8);
  let n = 0;
  const nextId = () => `${prefix}-${n++}`;
  // The retry field goes with the first event, so a client reads it before any end.
  let retry = fault.retryMs;
  if (fault.priming) {
    await out.write(primingEvent(nextId(), retry));
    retry = undefined;
  }
  for (const [i, kind] of fault.events.entries()) {
    const id = kind === "with_id" ? nextId() : kind === "empty_id" ? "" : undefined;
    const message = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "faultline", data: `standalone stream event ${i + 1} of ${fault.events.length}` } };
    await out.write(sseEvent(message, { ...(id !== undefined ? { id } : {}), ...(retry !== undefined ? { retry } : {}) }));
    retry = undefined;
  }
  if (retry !== undefined) await out.write(`retry: ${retry}\n\n`);
}

/**
 * 2026-07-28: no event ids, no retry (the era has no resumption). Any event makes the acknowledgement, tagged with the
 * subscription id (the listen request's id); `answer` ends with the complete result, the graceful closure.
 */
async function listenEvents(fault: ListenStream, id: RequestId, out: StreamWriter): Promise<void> {
  const tag = { [SUBSCRIPTION_ID]: id };
  if (fault.events.length > 0) await out.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: tag } });
  if (fault.answer) await out.send(resultMessage(id, { resultType: "complete", _meta: { ...tag, [META.serverInfo]: SERVER_INFO } }));
}
