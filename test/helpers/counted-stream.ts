import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A pull-based SSE body that offers `event` again and again until `offer` bytes were pulled, then `last` (if any)
 * and the end: `state` counts what was pulled and says whether the reader cancelled. The tests of bounded reading
 * (the journal's relay, proxy mode's alter path) assert on it.
 */
export function countedSseStream(event: Uint8Array, offer: number, last?: Uint8Array) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= offer) {
          if (last) controller.enqueue(last);
          return controller.close();
        }
        state.pulled += event.byteLength;
        controller.enqueue(event);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { state, response: new Response(stream, { headers: { "content-type": "text/event-stream" } }) };
}

/** Waits for `check`, polling every 10 ms at most `tries` times, and fails with `what` if it never holds. */
export async function until(check: () => boolean, what: string, tries: number): Promise<void> {
  for (let i = 0; i < tries && !check(); i++) await sleep(10);
  assert.ok(check(), what);
}
