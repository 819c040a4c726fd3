import type { Fault } from "./schema.ts";
import { openStream, primingEvent, sseEvent, SSE_HEADERS } from "../wire/sse.ts";
import type { Deadline } from "../wire/deadline.ts";
import { sleep } from "../base/sleep.ts";

/** How long after its last event a dropped stream is aborted. */
const DROP_PAUSE_MS = 100;

type ListenStream = Extract<Fault, { kind: "listen_stream" }>;

/**
 * A standalone GET stream (2025-11-25 transports, "Listening for Messages from the Server") that ends the way the
 * fault says: the events it sends, each a notifications/message; then a graceful end of the body, or an abort of it.
 * Event ids are fresh per stream (a random prefix and a counter), since 2025-11-25 asks them to be unique across
 * every stream of the session; the journal keeps the ids sent, which is what the reconnect checks compare.
 */
export function listenStreamResponse(fault: ListenStream, input: { waitUntil: (p: Promise<unknown>) => void; deadline: Deadline; headers?: Record<string, string> }): Response {
  const prefix = crypto.randomUUID().slice(0, 8);
  let n = 0;
  const nextId = () => `${prefix}-${n++}`;
  const readable = openStream({ waitUntil: input.waitUntil, deadline: input.deadline, sse: true }, async (out) => {
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
    if (fault.close === "drop") {
      // workerd discards what it has not yet sent once a body errors: the pause lets the last event reach the client
      // (and so the journal's copy match what the client got) before the connection goes.
      await sleep(DROP_PAUSE_MS);
      await out.abort();
    }
  });
  return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...input.headers } });
}
