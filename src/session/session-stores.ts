import type { RedactOptions } from "../journal/redact.ts";
import type { JournalSql } from "../journal/store.ts";
import { RecordingStore } from "../recording/store.ts";
import { SESSION_LAYOUT } from "./layouts.ts";
import { type JournalPace, SessionJournal } from "./session-journal.ts";
import { migrateStorage } from "./storage-format.ts";
import { StoredRecord } from "./stored-record.ts";

/** A session's stores over its SQLite tables; they exist only while its storage does (not after an erase). */
export interface SessionStores {
  record: StoredRecord;
  journal: SessionJournal;
  recording: RecordingStore;
}

/**
 * Migrates the session's storage to SESSION_LAYOUT (once per object: when it wakes with data, or when create() makes
 * it) and opens its stores.
 */
export function openStores(storage: DurableObjectStorage, vars: ConstructorParameters<typeof SessionJournal>[1], redaction: RedactOptions, pace: JournalPace): SessionStores {
  migrateStorage(storage, SESSION_LAYOUT);
  return {
    record: new StoredRecord(storage.sql),
    journal: new SessionJournal(storage.sql as unknown as JournalSql, vars, redaction, pace),
    recording: new RecordingStore(storage.sql as unknown as JournalSql, () => pace.settle()),
  };
}
