/**
 * FAULTLINE_MAX_RESPONSE_SECONDS: every MCP response ends within this time of its request. A drip's length depends on
 * its body and a stream may wait on a client, so the limit is enforced while the response runs, not when it is chosen.
 */
export const DEFAULT_MAX_RESPONSE_SECONDS = 600;

export class Deadline {
  /** Epoch milliseconds at which the response is cut. */
  readonly at: number;
  readonly seconds: number;
  /** Set when a response was closed because the deadline came. */
  cut = false;

  constructor(start: number, seconds: number) {
    this.seconds = seconds;
    this.at = start + seconds * 1000;
  }

  /** The deadline from the [vars] value, or the default when it is unset or not a positive number. */
  static fromVar(start: number, value: string | undefined): Deadline {
    const seconds = Number(value);
    return new Deadline(start, Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MAX_RESPONSE_SECONDS);
  }

  remainingMs(now = Date.now()): number {
    return Math.max(0, this.at - now);
  }
}
