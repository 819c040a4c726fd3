/** How long a journal row or a counter waits in memory before it is written (see SessionObject). */
export const WRITE_BEHIND_MS = 10;

/**
 * When a session writes the counters and journal rows that wait in memory: WRITE_BEHIND_MS after the first one
 * waits, or at once when the last MCP exchange in flight is journalled. So a client that calls one request at a time
 * writes each exchange before its response is released (the output gate), and a graceful stop, which lets the
 * exchanges in flight finish, loses nothing. Only while exchanges overlap do rows wait for the timer.
 */
export class WriteBehind {
  private readonly write: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** MCP exchanges begun and not yet journalled. */
  private inFlight = 0;

  constructor(write: () => void) {
    this.write = write;
  }

  /** Called by the journal and the counters when a first row waits: one timer writes them all. */
  readonly soon = (): void => {
    this.timer ??= setTimeout(() => this.flush(), WRITE_BEHIND_MS);
  };

  /** Writes what waits now. */
  flush(): void {
    this.cancel();
    this.write();
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Counts an exchange in flight; the function returned, called when it is journalled (once counts), ends it. */
  begin(): () => void {
    this.inFlight++;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      if (--this.inFlight === 0) this.flush();
    };
  }
}
