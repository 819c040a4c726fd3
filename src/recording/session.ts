import { findScenario } from "../../scenarios/index.ts";
import type { ActiveScenario } from "../mcp/runtime.ts";
import type { SessionRecord } from "../session/record.ts";
import { replayAnswers, type ReplayStore, type Timing } from "./replay.ts";
import { REPLAY_SCENARIO } from "./source.ts";

/**
 * What a session runs: its scenario, or for a replay session its fault scenario (none when it has no `faults`)
 * deciding, with the loaded recording answering where the handler would.
 */
export function activeFor(record: SessionRecord, active: ActiveScenario, store: ReplayStore): ActiveScenario {
  if (record.scenario !== REPLAY_SCENARIO) return active;
  const replay = replayAnswers(store, active.params.timing === "fast" ? "fast" : ("recorded" satisfies Timing));
  const faults = record.faults ? findScenario(record.faults.scenario) : undefined;
  return faults && record.faults ? { scenario: faults, params: record.faults.params, replay } : { ...active, replay };
}
