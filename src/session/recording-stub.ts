import { ApiError, invalidRequest } from "../api-error.ts";
import type { Remote } from "./remote.ts";
import type { SessionObject } from "./session-object.ts";
import { answersFromRecording, RECORDING_SCENARIO_ID } from "../../scenarios/index.ts";
import type { Recording } from "../recording/exchange.ts";

type RecordingApi = Remote<Pick<SessionObject, "recordingCopy" | "storeUpload" | "eraseUpload">>;

/** The Durable Object that holds a recording: a session's own, or an uploaded HAR's under a name no session id can take. */
export function recordingStub(env: Env, name: string): RecordingApi {
  return env.SESSIONS.get(env.SESSIONS.idFromName(name)) as unknown as RecordingApi;
}

/** The Durable Object name of an uploaded HAR; a colon never appears in a session id. */
export const uploadName = (id: string) => `upload:${id}`;

/**
 * Checks a session's replay settings at creation and fetches the recording it will answer from: `faults` only on a
 * replay, exactly one of `from` and `har`, a recording that exists and is whole. Every refusal is a 400 that names
 * the field and the rule. Undefined for a session that is not a replay (a scenario that declares no answersFromRecording).
 */
export async function replaySource(env: Env, scenario: string, params: Record<string, unknown>, faults?: { scenario: string }): Promise<Recording | undefined> {
  if (!answersFromRecording(scenario)) {
    if (faults) throw invalidRequest([{ path: "faults", rule: "replay_only", message: `faults go on a replay session (scenario "${RECORDING_SCENARIO_ID}"); for ${scenario} choose the fault scenario itself` }]);
    return undefined;
  }
  if (faults && answersFromRecording(faults.scenario)) throw invalidRequest([{ path: "faults.scenario", rule: "not_replay", message: "a replay cannot be the fault scenario of a replay" }]);
  const { from, har } = params as { from?: string; har?: string };
  if ((from === undefined) === (har === undefined)) {
    throw invalidRequest([{ path: "params.from", rule: "one_source", message: "give exactly one of params.from (a recorded session's id) and params.har (an uploaded HAR's id)" }]);
  }
  const [path, name, what, hint] =
    from !== undefined
      ? ["params.from", from, `session '${from}'`, 'create it with "record": true and use it first']
      : ["params.har", uploadName(har!), `HAR '${har}'`, "upload it with POST /api/recordings"];
  const recording = await recordingStub(env, name).recordingCopy();
  if (!recording) throw invalidRequest([{ path, rule: "no_recording", message: `${what} has no recording: ${hint}` }]);
  if (recording.truncated !== undefined) {
    throw new ApiError(400, "recording_truncated", `The recording of ${what} is incomplete, so a replay would answer wrongly: ${recording.truncated}`, [
      { path, rule: "whole_recording", message: recording.truncated },
    ]);
  }
  return recording;
}
