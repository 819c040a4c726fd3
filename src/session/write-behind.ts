/** How long a journal row or a counter waits in memory before it is written (see SessionObject). */
export const WRITE_BEHIND_MS = 10;

/**
 * Exchanges answered and not yet journalled, at most: past it, a new response first journals the oldest waiting
 * one (under load workerd may run new requests before the turns that journal the answered ones).
 */
export const AFTER_RESPONSE_MAX = 64;

/**
 * When a session journals its exchanges and writes the counters and journal rows that wait in memory.
 *
 * - An exchange whose response body is known whole is journalled just after its response is released
 *   (afterResponse): the response does not wait for the journal's work, nor for its write (the output gate).
 * - Rows are written WRITE_BEHIND_MS after the first one waits, or at once when the last MCP exchange in flight is
 *   journalled. So a client that calls one request at a time has each exchange written a turn after its response,
 *   and a graceful stop, which lets the exchanges in flight finish, loses nothing. Only while exchanges overlap do
 *   rows wait for the timer.
 * - A read of the journal calls settle() first, so it sees every exchange whose response was released.
 */
export class WriteBehind {
  private readonly write: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** MCP exchanges begun and not yet journalled. */
  private inFlight = 0;
  /** Journal tasks of released responses, in the order of their responses. */
  private later: (() => void)[] = [];
  /** Turns scheduled to run one of them; never more than the tasks waiting when one was scheduled. */
  private turns = 0;

  constructor(write: () => void) {
    this.write = write;
  }

  /** Called by the journal and the counters when a first row waits: one timer writes them all. */
  readonly soon = (): void => {
    this.timer ??= setTimeout(() => this.flush(), WRITE_BEHIND_MS);
  };

  /**
   * Runs a task at a next turn, after the response in hand is released; settle() runs it sooner. Each task has its
   * own turn, which runs the oldest one waiting: requests that arrive between two of them begin first, so exchanges
   * overlap and their rows are written together (one task per turn measured 0.84× the CPU of one turn for all that
   * wait, bench/NOTES.md). A turn left over after settle() ran its task runs a later one, so the turns scheduled stay
   * within AFTER_RESPONSE_MAX however long workerd puts them off.
   */
  readonly afterResponse = (task: () => void): void => {
    while (this.later.length >= AFTER_RESPONSE_MAX) this.later.shift()!();
    this.later.push(task);
    if (this.turns >= this.later.length) return;
    this.turns++;
    setTimeout(() => {
      this.turns--;
      this.later.shift()?.();
    }, 0);
  };

  /** Runs every task afterResponse holds, in order (a read of the journal calls it first). */
  settle(): void {
    const tasks = this.later;
    this.later = [];
    for (const task of tasks) task();
  }

  /** Journals the exchanges whose responses are out, then writes what waits, now. */
  flush(): void {
    this.settle();
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
