import type { Recording } from "../recording/exchange.ts";
import type { SessionRecord } from "./record.ts";

/** A new scenario for a session: its params and, for a replay, the recording it answers from. */
export interface ScenarioChange {
  scenario: string;
  params: Record<string, unknown>;
  replay?: Recording;
}

/** The parts of a session a scenario change writes, each in the one transaction. */
export interface ChangedParts {
  transactionSync<T>(fn: () => T): T;
  record: { update(record: SessionRecord): void; forget(): void };
  counters: { clearCounters(): void };
  journal: { markEpoch(): void };
  recording: { load(recording: Recording): void };
}

/**
 * Makes a scenario live: the record with the new scenario and params, the counters back to zero, the checks' epoch
 * and (for a replay) the loaded recording, in one synchronous transaction. So a request never sees the new scenario
 * without its recording (nothing else runs on the object in between), and a step that fails rolls every one back,
 * leaving the old scenario live. The caller writes what waits in memory first, so storage, which memory is read
 * back from after a rollback, is complete.
 */
export function changeScenario(parts: ChangedParts, current: SessionRecord, change: ScenarioChange): SessionRecord {
  const next = { ...current, scenario: change.scenario, params: change.params };
  try {
    parts.transactionSync(() => {
      parts.record.update(next);
      parts.counters.clearCounters();
      parts.journal.markEpoch();
      if (change.replay) parts.recording.load(change.replay);
    });
  } catch (error) {
    parts.record.forget(); // rolled back: read the row again
    throw error;
  }
  return next;
}
