import { findScenario } from "../../scenarios/index.ts";
import type { UpstreamSide } from "../journal/entry.ts";
import { builtinSource, toolsFor } from "../mcp/builtin.ts";
import type { ActiveScenario } from "../mcp/runtime.ts";
import type { AnswerSource } from "../mcp/source.ts";
import { proxySource } from "../proxy/source.ts";
import { replaySource, type ReplayStore } from "../recording/replay.ts";
import type { SessionRecord } from "./record.ts";

/**
 * Where a session's answers come from, picked from its record (src/mcp/source.ts): an upstream when it names one, a
 * recording for a replay session, the built-in server otherwise. A replay's fault scenario (none without `faults`)
 * is what decides; the recording answers where the handler would.
 */
export function answerSource(record: SessionRecord, active: ActiveScenario, recording: ReplayStore): { active: ActiveScenario; source: AnswerSource<UpstreamSide> } {
  if (record.upstream) return { active, source: proxySource(record.upstream) };
  if (!active.scenario.answersFromRecording) return { active, source: builtinSource(active) };
  const faults = record.faults ? findScenario(record.faults.scenario) : undefined;
  const deciding = faults && record.faults ? { scenario: faults, params: record.faults.params } : active;
  return { active: deciding, source: replaySource(recording, active.params.timing === "fast" ? "fast" : "recorded", toolsFor(deciding)) };
}
