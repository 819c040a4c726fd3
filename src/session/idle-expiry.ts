import { DEFAULT_SESSION_ID, type SessionRecord } from "./record.ts";
import { alarmDecision, sessionTtlMs, stampGapMs } from "./idle-ttl.ts";
import type { Sql } from "./storage-format.ts";

/** Whether the idle alarm may delete a session: not the `default` session, not one created with `keep: true`. */
export function expires(record: SessionRecord): boolean {
  return record.id !== DEFAULT_SESSION_ID && record.keep !== true;
}

/** What idle expiry uses of the Durable Object's state (DurableObjectState matches it). */
export interface AlarmState {
  readonly storage: {
    readonly sql: Sql;
    getAlarm(): Promise<number | null>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

/**
 * A session's idle expiry (FAULTLINE_SESSION_TTL_HOURS; see idle-ttl.ts): the uses it notes, the stored last-use
 * stamp, and the alarm's decision. `present` tells whether the session's storage still exists (not erased).
 */
export class IdleExpiry {
  private readonly ctx: AlarmState;
  private readonly vars: { FAULTLINE_SESSION_TTL_HOURS?: string };
  private readonly present: () => boolean;
  /** The last use this instance saw; exact, but lost when the object is evicted, hence the stored stamp too. */
  private lastUseMs: number | undefined;
  /** The stored last-use stamp as this instance last wrote or read it. */
  private stampMs: number | undefined;
  /** Whether this instance made sure the alarm is set (sessions stored before idle expiry existed have none). */
  private alarmChecked = false;

  constructor(ctx: AlarmState, vars: { FAULTLINE_SESSION_TTL_HOURS?: string }, present: () => boolean) {
    this.ctx = ctx;
    this.vars = vars;
    this.present = present;
  }

  /**
   * Notes a use. Memory always; the stored stamp only when it lags by more than stampGapMs, so most requests write
   * nothing; the alarm is not moved (it re-arms itself from the last use when it fires).
   */
  used(record: SessionRecord): void {
    const now = Date.now();
    this.lastUseMs = now;
    if (!expires(record)) return;
    const ttl = sessionTtlMs(this.vars);
    this.stampMs ??= this.readStamp();
    if (this.stampMs === undefined || now - this.stampMs >= stampGapMs(ttl)) {
      this.ctx.storage.sql.exec("INSERT OR REPLACE INTO config (k, v) VALUES ('lastUse', ?)", String(now));
      this.stampMs = now;
    }
    if (!this.alarmChecked) {
      this.alarmChecked = true;
      void this.ctx.storage.getAlarm().then((at) => {
        if (at === null && this.present()) return this.ctx.storage.setAlarm(now + ttl);
      });
    }
  }

  /** A new session that can expire gets its alarm one TTL from now, and its first stamp. */
  created(record: SessionRecord): void {
    this.stampMs = undefined;
    this.alarmChecked = true;
    this.used(record);
    if (expires(record)) void this.ctx.storage.setAlarm(Date.now() + sessionTtlMs(this.vars));
  }

  /**
   * The alarm fired: true when the session has not been used for the TTL (the caller deletes it); otherwise the
   * alarm is set again for one TTL after the last use.
   */
  async idle(record: SessionRecord): Promise<boolean> {
    if (!expires(record)) return false;
    const decision = alarmDecision(Date.now(), sessionTtlMs(this.vars), {
      inMemoryMs: this.lastUseMs,
      storedMs: this.readStamp(),
      createdMs: Date.parse(record.createdAt),
    });
    if (decision.expire) return true;
    await this.ctx.storage.setAlarm(decision.nextAlarmMs);
    return false;
  }

  private readStamp(): number | undefined {
    const v = this.ctx.storage.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'lastUse'").toArray()[0]?.v;
    return v === undefined ? undefined : Number(v);
  }
}
