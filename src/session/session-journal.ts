import type { JournalEntry, NewJournalEntry } from "../journal/entry.ts";
import { DEFAULT_LIVE_LIMITS, liveJournal, MAX_LIVE_STREAMS } from "../journal/live.ts";
import type { RedactOptions } from "../journal/redact.ts";
import type { SlimEntry } from "../journal/slim.ts";
import { DEFAULT_RETENTION, type EntryParses, type JournalQuery, type JournalSql, JournalStore } from "../journal/store.ts";
import { positive } from "./env-number.ts";

/** Projections read per page when the checks read the journal. */
const CHECKS_PAGE = 500;

type JournalVars = { JOURNAL_MAX_ENTRIES?: string; JOURNAL_MAX_AGE_HOURS?: string; JOURNAL_STREAM_MAX_UNREAD_BYTES?: string; JOURNAL_STREAM_STALL_SECONDS?: string };

/**
 * When the session's journal work runs (WriteBehind): `soon` when a first row waits to be written; `settle` journals
 * the exchanges whose responses are out and whose entries wait for the next turn, which every read calls first.
 */
export interface JournalPace {
  soon(): void;
  settle(): void;
}

/**
 * The session's journal as its Durable Object serves it: the store (write-behind, with the retention from the env),
 * the live streams that follow it, and the epoch (the last seq before the scenario was last set or reset) from which
 * the checks read. Every read sees each exchange whose response was released (pace.settle first).
 */
export class SessionJournal {
  readonly store: JournalStore;
  private readonly sql: JournalSql;
  private readonly vars: JournalVars;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();
  private liveStreams = 0;
  private readonly pace: JournalPace;

  constructor(sql: JournalSql, vars: JournalVars, redaction: RedactOptions, pace: JournalPace) {
    this.sql = sql;
    this.vars = vars;
    this.pace = pace;
    this.store = new JournalStore(sql, {
      maxEntries: positive(vars.JOURNAL_MAX_ENTRIES, DEFAULT_RETENTION.maxEntries),
      maxAgeMs: positive(vars.JOURNAL_MAX_AGE_HOURS, DEFAULT_RETENTION.maxAgeMs / 3_600_000) * 3_600_000,
    }, redaction, () => pace.soon());
  }

  /** Stores an exchange and hands it to every live stream; `parsed` holds the bodies the pipeline parsed already. */
  append(entry: NewJournalEntry, parsed?: EntryParses): JournalEntry {
    const stored = this.store.append(entry, Date.now(), parsed);
    for (const listener of this.listeners) listener(stored);
    return stored;
  }

  page(query: JournalQuery): { entries: JournalEntry[]; nextSeq?: number } {
    this.pace.settle();
    return this.store.query(query);
  }

  /** The live journal as SSE (see liveJournal): "busy" when MAX_LIVE_STREAMS are open already. */
  stream(sinceSeq: number): ReadableStream<Uint8Array> | "busy" {
    if (this.liveStreams >= MAX_LIVE_STREAMS) return "busy";
    this.liveStreams++;
    const source = {
      page: (after: number, limit: number) => this.store.query({ sinceSeq: after, limit, order: "asc" as const }).entries,
      subscribe: (listener: (entry: JournalEntry) => void) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
    const limits = {
      maxUnreadBytes: positive(this.vars.JOURNAL_STREAM_MAX_UNREAD_BYTES, DEFAULT_LIVE_LIMITS.maxUnreadBytes),
      stallMs: positive(this.vars.JOURNAL_STREAM_STALL_SECONDS, DEFAULT_LIVE_LIMITS.stallMs / 1000) * 1000,
    };
    return liveJournal(source, sinceSeq, limits, () => this.liveStreams--);
  }

  /** The checks start from here: entries journalled before a scenario change or a reset are not judged. */
  markEpoch(): void {
    this.pace.settle();
    this.store.flush();
    const last = this.sql.exec<{ m: number | null }>("SELECT MAX(seq) AS m FROM journal").one().m ?? 0;
    this.sql.exec("INSERT OR REPLACE INTO config (k, v) VALUES ('epoch', ?)", String(last));
  }

  /** The checks' projections since the epoch, read in pages with `pause` between them (workerd has one thread). */
  async sinceEpoch(pause: () => Promise<void>): Promise<SlimEntry[]> {
    this.pace.settle();
    let after = Number(this.sql.exec<{ v: string }>("SELECT v FROM config WHERE k = 'epoch'").toArray()[0]?.v ?? "0");
    const entries: SlimEntry[] = [];
    for (;;) {
      const page = this.store.slimPage(after, CHECKS_PAGE);
      entries.push(...page);
      if (page.length < CHECKS_PAGE) break;
      after = page[page.length - 1]!.seq;
      await pause();
    }
    return entries;
  }
}
