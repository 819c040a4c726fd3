import type { JournalEntry } from "./entry.ts";

/** Live journal streams open at once per session; one more is refused with 429. */
export const MAX_LIVE_STREAMS = 4;
/** Entries read from SQLite per replay step; the next step waits until the reader has taken this one. */
const REPLAY_PAGE = 20;
/** Bytes queued before the stream stops asking for more replay. */
const HIGH_WATER = 64 * 1024;

export interface LiveLimits {
  /** Bytes the reader may leave unread… */
  maxUnreadBytes: number;
  /** …for at most this long before the stream is closed. */
  stallMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { maxUnreadBytes: 1024 * 1024, stallMs: 10_000 };

export interface LiveSource {
  /** Up to `limit` entries with seq greater than `afterSeq`, oldest first. */
  page(afterSeq: number, limit: number): JournalEntry[];
  /** Calls `listener` with each entry as it is stored; returns the unsubscribe. */
  subscribe(listener: (entry: JournalEntry) => void): () => void;
}

const encoder = new TextEncoder();
const frame = (entry: JournalEntry) => encoder.encode(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);

/**
 * The journal as SSE: every entry after `sinceSeq`, replayed a page at a time as the reader takes them
 * (backpressure), then each new entry as it is stored, with a heartbeat comment. A reader that leaves more than
 * `maxUnreadBytes` unread for `stallMs` is cut off, so a stalled client cannot make the session hold an unbounded
 * queue. The heartbeat also tells the session of a reader that went away (a write to it fails), freeing its place.
 */
export function liveJournal(source: LiveSource, sinceSeq: number, limits: LiveLimits, onEnd: () => void): ReadableStream<Uint8Array> {
  let lastSeq = sinceSeq;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let overSince: number | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe?.();
    if (heartbeat !== undefined) clearInterval(heartbeat);
    onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(": faultline journal\n\n"));
      },
      pull(controller) {
        if (unsubscribe) return; // live already: entries are pushed as they come
        const page = source.page(lastSeq, REPLAY_PAGE);
        for (const entry of page) controller.enqueue(frame(entry));
        lastSeq = page.at(-1)?.seq ?? lastSeq;
        if (page.length === REPLAY_PAGE) return;
        // Caught up; nothing can be stored between the page read and the subscription (one synchronous step).
        const send = (bytes: Uint8Array) => {
          controller.enqueue(bytes);
          const unread = HIGH_WATER - (controller.desiredSize ?? 0);
          if (unread <= limits.maxUnreadBytes) overSince = undefined;
          else if (overSince === undefined) overSince = Date.now();
          else if (Date.now() - overSince >= limits.stallMs) {
            end();
            controller.error(new Error(`live journal reader left more than ${limits.maxUnreadBytes} bytes unread for ${limits.stallMs} ms`));
          }
        };
        unsubscribe = source.subscribe((entry) => {
          if (ended || entry.seq <= lastSeq) return;
          lastSeq = entry.seq;
          send(frame(entry));
        });
        heartbeat = setInterval(() => send(HEARTBEAT), heartbeatMs(limits));
      },
      cancel() {
        end();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER }),
  );
}

const HEARTBEAT = encoder.encode(": keep-alive\n\n");

/** Often enough to measure a stall to within a quarter of its length; at most every 15 s. */
const heartbeatMs = (limits: LiveLimits) => Math.min(15_000, Math.max(100, limits.stallMs / 4));
