import type { Deadline } from "./deadline.ts";

/**
 * SSE framing and the one SSE writer. Framing: every event Faultline sends (MCP messages, the live journal) goes
 * through sseEvent. Writing: every streamed MCP response (faults, legacy input requests, listen streams) goes
 * through openStream, which also enforces the response deadline.
 */

/** Encodes one SSE event; `id` and `retry` only where the caller's era allows them. */
export function sseEvent(data: unknown, options: { id?: string; retry?: number; event?: string } = {}): string {
  let out = "";
  if (options.id !== undefined) out += `id: ${options.id}\n`;
  if (options.retry !== undefined) out += `retry: ${options.retry}\n`;
  out += `event: ${options.event ?? "message"}\n`;
  out += `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
  return out;
}

/** An SSE comment line, which clients ignore (keep-alives, markers). */
export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}

/** A priming event: an event id with empty data, as 2025-11-25 servers SHOULD send first. */
export function primingEvent(id: string, retry?: number): string {
  return `id: ${id}\n${retry === undefined ? "" : `retry: ${retry}\n`}data: \n\n`;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
} as const;

/** The writing end of a streamed response body. */
export interface StreamWriter {
  /** Writes text or bytes; resolves when written, and never rejects (a closed stream drops the chunk). */
  write(chunk: string | Uint8Array): Promise<void>;
  /**
   * Writes one SSE event carrying `message`. Resolves once written (as `write`), to whether the stream is still open:
   * a caller that awaits it queues no more than the stream holds for a client that does not read.
   */
  send(message: unknown): Promise<boolean>;
  /** True until the stream is closed by its owner, the deadline or the client going away. */
  readonly open: boolean;
  /** Resolves once the stream is closed, for whatever reason. */
  readonly ended: Promise<void>;
  close(): Promise<void>;
  /** Ends the body with an error instead of its end, as a lost connection looks to the client. */
  abort(): Promise<void>;
}

export interface StreamOptions {
  waitUntil: (promise: Promise<unknown>) => void;
  deadline?: Deadline;
  /** SSE streams get a comment saying why they were cut; other bodies (a dripped JSON) are just closed. */
  sse: boolean;
}

/**
 * Opens a response body and runs `body` behind it, so the headers go out at once. The body is closed when `body`
 * settles or the deadline comes, whichever is first.
 */
export function openStream(options: StreamOptions, body: (out: StreamWriter) => Promise<void>): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const close = async () => {
    if (!open) return;
    open = false;
    finish();
    await writer.close().catch(() => undefined);
  };
  const out: StreamWriter = {
    write: (chunk) =>
      open ? writer.write(typeof chunk === "string" ? encoder.encode(chunk) : chunk).catch(() => void close()) : Promise.resolve(),
    send: (message) => out.write(sseEvent(message)).then(() => open),
    get open() {
      return open;
    },
    ended,
    close,
    abort: async () => {
      if (!open) return;
      open = false;
      finish();
      await writer.abort(new Error("stream dropped (injected by Faultline)")).catch(() => undefined);
    },
  };
  const deadline = options.deadline;
  const timer = deadline
    ? setTimeout(() => {
        if (!open) return;
        deadline.cut = true;
        if (options.sse) void out.write(sseComment(`faultline: response cut at the ${deadline.seconds} s deadline (FAULTLINE_MAX_RESPONSE_SECONDS)`));
        void close();
      }, deadline.remainingMs())
    : undefined;
  // Ended early (its MCP session was ended with every other, as by a restart): the stream ends, saying why.
  const early = deadline?.endable ? endedEarly(deadline) : undefined;
  const said = early?.ended.then((why) => {
    if (open && options.sse) void out.write(sseComment(`faultline: stream ended: ${why}`));
  });
  options.waitUntil(
    Promise.race([body(out), ended, ...(said ? [said] : [])])
      .catch(() => undefined)
      .finally(() => {
        if (timer !== undefined) clearTimeout(timer);
        early?.stop();
        return close();
      }),
  );
  return readable;
}

/** How often an endable stream looks whether its response was ended early (Deadline.endNow). */
export const END_POLL_MS = 250;

/** Resolves with the reason once the response is ended early; `stop` ends the watch. Counts the stream meanwhile. */
function endedEarly(deadline: Deadline): { ended: Promise<string>; stop: () => void } {
  let poll: ReturnType<typeof setInterval> | undefined;
  deadline.openStreams++;
  const stop = () => {
    if (poll === undefined) return;
    clearInterval(poll);
    poll = undefined;
    deadline.openStreams--;
  };
  const ended = new Promise<string>((resolve) => {
    const look = () => {
      if (deadline.endedEarly === undefined) return false;
      stop();
      resolve(deadline.endedEarly);
      return true;
    };
    poll = setInterval(look, END_POLL_MS);
    look();
  });
  return { ended, stop };
}
