import { exchangeSize, RECORDING_LIMITS, type MatchKey, type RecordedExchange, type Recording } from "./exchange.ts";
import type { JournalSql } from "../journal/store.ts";
import { keyBytes, newRecordingKey } from "./match.ts";
import type { Found, ReplayStore } from "./replay.ts";

/**
 * A session's recording and, for a replay session, the recording it answers from: tables of the session's own
 * SQLite database. `recording` grows as a recorded session is used; `replay` is a loaded copy whose rows are marked
 * used as they are replayed, so the same request recorded twice replays in order. Its tables (tables.ts) are
 * created by the session's migrations (src/session/layouts.ts); a store only opens them.
 */
export class RecordingStore implements ReplayStore {
  private readonly sql: JournalSql;
  /**
   * recording_meta as read or written through this store, the only writer of its table: a recorded exchange reads
   * the key, the count and the size, which then cost no query each (a handful of keys, so bounded).
   */
  private readonly metaSeen = new Map<string, string | undefined>();
  private keyHeld: { hex: string; bytes: Uint8Array } | undefined;
  /** Records what waits to be recorded after its response (WriteBehind.settle), so a read sees every exchange answered. */
  private readonly settle: () => void;

  constructor(sql: JournalSql, settle: () => void = () => undefined) {
    this.sql = sql;
    this.settle = settle;
  }

  private meta(k: string): string | undefined {
    if (this.metaSeen.has(k)) return this.metaSeen.get(k);
    const v = this.sql.exec<{ v: string }>("SELECT v FROM recording_meta WHERE k = ?", k).toArray()[0]?.v;
    this.metaSeen.set(k, v);
    return v;
  }

  /** Writes each key and value given, in one statement. */
  private setMeta(...pairs: [k: string, v: string][]): void {
    this.sql.exec(`INSERT OR REPLACE INTO recording_meta (k, v) VALUES ${pairs.map(() => "(?, ?)").join(", ")}`, ...pairs.flat());
    for (const [k, v] of pairs) this.metaSeen.set(k, v);
  }

  // ---- recording ----

  /** The key of this session's match digests, made on first use. */
  key(): Uint8Array {
    let hex = this.meta("key");
    if (!hex) this.setMeta(["key", (hex = newRecordingKey())]);
    if (this.keyHeld?.hex !== hex) this.keyHeld = { hex, bytes: keyBytes(hex) };
    return this.keyHeld.bytes;
  }

  /**
   * Keeps one exchange, within RECORDING_LIMITS: one past the session's limits is not kept, and a cut body is kept
   * cut; either marks the recording truncated, with the first reason.
   */
  append(exchange: RecordedExchange): void {
    const size = exchangeSize(exchange);
    const count = Number(this.meta("count") ?? "0");
    const total = Number(this.meta("size") ?? "0");
    const n = count + 1;
    if (count >= RECORDING_LIMITS.exchanges || total + size > RECORDING_LIMITS.sessionBytes) {
      this.truncate(`exchange ${n} was not recorded: the recording holds at most ${RECORDING_LIMITS.exchanges} exchanges and ${RECORDING_LIMITS.sessionBytes} characters of bodies`);
      return;
    }
    if (exchange.request.body.truncated || exchange.response.body.truncated) {
      this.truncate(`exchange ${n}: a body was cut at the recording's limit of ${RECORDING_LIMITS.bodyBytes} characters`);
    }
    this.sql.exec("INSERT INTO recording (exchange) VALUES (?)", JSON.stringify(exchange));
    this.setMeta(["count", String(n)], ["size", String(total + size)]);
  }

  private truncate(reason: string): void {
    if (this.meta("truncated") === undefined) this.setMeta(["truncated", reason]);
  }

  /** True once anything was recorded or stored here. */
  has(): boolean {
    return this.meta("key") !== undefined;
  }

  /** The whole recording, or undefined when nothing was ever recorded here. */
  recording(): Recording | undefined {
    this.settle();
    const key = this.meta("key");
    if (!key) return undefined;
    const exchanges = this.sql.exec<{ exchange: string }>("SELECT exchange FROM recording ORDER BY seq").toArray().map((r) => JSON.parse(r.exchange) as RecordedExchange);
    const truncated = this.meta("truncated");
    return { key, ...(truncated !== undefined ? { truncated } : {}), exchanges };
  }

  /** Stores a whole recording (an uploaded HAR) in an empty store. */
  store(recording: Recording): void {
    this.setMeta(["key", recording.key]);
    for (const exchange of recording.exchanges) this.append(exchange);
    if (recording.truncated !== undefined) this.truncate(recording.truncated);
  }

  // ---- replay ----

  /** Loads the recording a replay answers from, replacing any loaded before. Only requests and notifications can match. */
  load(recording: Recording): void {
    this.sql.exec("DELETE FROM replay");
    this.sql.exec("DELETE FROM replay_state");
    this.setMeta(["replay-key", recording.key]);
    recording.exchanges.forEach((exchange, seq) => {
      if (exchange.match) this.sql.exec("INSERT INTO replay (seq, method, digest, exchange) VALUES (?, ?, ?, ?)", seq + 1, exchange.match.method, exchange.match.digest, JSON.stringify(exchange));
    });
  }

  /** The key the loaded recording's digests were taken with; undefined when none is loaded. */
  replayKey(): Uint8Array | undefined {
    const hex = this.meta("replay-key");
    return hex ? keyBytes(hex) : undefined;
  }

  /**
   * Takes the first unused recorded exchange that matches, after `afterSeq` when given (the continuation of the call
   * whose answer issued a requestState), and marks it used: one indexed lookup and one write.
   */
  take(key: MatchKey, afterSeq = 0): Found | undefined {
    const row = this.sql
      .exec<{ seq: number; exchange: string }>(
        "UPDATE replay SET used = 1 WHERE seq = (SELECT seq FROM replay WHERE method = ? AND digest = ? AND used = 0 AND seq > ? ORDER BY seq LIMIT 1) RETURNING seq, exchange",
        key.method,
        key.digest,
        afterSeq,
      )
      .toArray()[0];
    return row ? { seq: row.seq, exchange: JSON.parse(row.exchange) as RecordedExchange } : undefined;
  }

  /** How often the recording holds this request: all of them were replayed when a lookup fails. */
  recorded(key: MatchKey): number {
    return this.sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM replay WHERE method = ? AND digest = ?", key.method, key.digest).one().c;
  }

  /** Remembers a requestState this replay issued in place of a recorded one, for the exchange that issued it. */
  issueState(token: string, seq: number): void {
    this.sql.exec("INSERT INTO replay_state (token, seq) VALUES (?, ?)", token, seq);
  }

  /** The exchange that issued a requestState, when this replay issued it. */
  stateSeq(token: string): number | undefined {
    return this.sql.exec<{ seq: number }>("SELECT seq FROM replay_state WHERE token = ?", token).toArray()[0]?.seq;
  }

  /** Starts the replay over: every recorded exchange can be replayed again (a session reset). */
  rewind(): void {
    this.sql.exec("UPDATE replay SET used = 0");
    this.sql.exec("DELETE FROM replay_state");
  }
}
