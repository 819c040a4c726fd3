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
  /**
   * Set when the response belongs to something that can be ended before its deadline (a legacy MCP session, which
   * POST /api/sessions/{id}/expire-mcp-sessions ends as a restart would): its streams then watch `endedEarly`.
   */
  endable = false;
  /** Why the response was ended before its deadline (endNow), when it was. */
  endedEarly: string | undefined;
  /** Streams written under this deadline that are open now and watching for endNow. */
  openStreams = 0;

  constructor(start: number, seconds: number) {
    this.seconds = seconds;
    this.at = start + seconds * 1000;
  }

  /** The deadline from the [vars] value, or the default when it is unset or not a positive number. */
  static fromVar(start: number, value: string | undefined): Deadline {
    const seconds = Number(value);
    return new Deadline(start, Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MAX_RESPONSE_SECONDS);
  }

  /**
   * Ends the response now, as a server restart would: every stream written under this deadline closes within
   * END_POLL_MS (a stream opened later closes as it opens). Called by another request (the API call), which may not
   * touch this response's stream in workerd, nor wake it by settling a promise it awaits: the stream polls the flag.
   */
  endNow(why: string): void {
    this.endedEarly ??= why;
  }

  remainingMs(now = Date.now()): number {
    return Math.max(0, this.at - now);
  }
}
