import { findScenario } from "../../scenarios/index.ts";
import type { ActiveScenario } from "../mcp/runtime.ts";
import { REPLAY_SCENARIO } from "./exchange.ts";
import { replayAnswers, type ReplayAnswers, type ReplayStore } from "./replay.ts";

/** What of a session record a replay reads. */
type SessionRecord = { scenario: string; faults?: { scenario: string; params: Record<string, unknown> } };

/**
 * What a session runs: its scenario; for a replay session, its fault scenario (none without `faults`) deciding, and
 * the loaded recording answering where the handler would.
 */
export function replaySetup(record: SessionRecord, active: ActiveScenario, store: ReplayStore): { active: ActiveScenario; replay?: ReplayAnswers } {
  if (record.scenario !== REPLAY_SCENARIO) return { active };
  const replay = replayAnswers(store, active.params.timing === "fast" ? "fast" : "recorded");
  const faults = record.faults ? findScenario(record.faults.scenario) : undefined;
  return { active: faults && record.faults ? { scenario: faults, params: record.faults.params } : active, replay };
}
