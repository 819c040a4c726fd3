import { Hono } from "hono";
import { ApiError, parseJsonBody, payloadTooLarge, validationError } from "../src/api-error.ts";
import { SIZE_LIMITS } from "../src/base/json-limits.ts";
import { randomHex } from "../src/base/random-id.ts";
import { readCapped } from "../src/base/read-body.ts";
import { harRecording, HarSchema } from "../src/recording/har.ts";
import { recordingStub, uploadName } from "../src/session/recording-stub.ts";
import { indexStub } from "../src/session/index-stub.ts";
import { redactNames } from "../src/journal/redact.ts";
import { audit } from "../src/access/audit.ts";
import { storeWithinCap } from "../src/access/upload-cap.ts";
import { RECORDING_SCENARIO_ID } from "../scenarios/index.ts";

const UPLOAD_ID = /^[0-9a-f]{32}$/;

function notFound(id: string): ApiError {
  return new ApiError(404, "recording_not_found", `No uploaded recording has the id '${id}'`);
}

/**
 * Uploaded HARs, for replay sessions (`{"scenario": "replay", "params": {"har": id}}`). An upload is kept until it is
 * deleted; a replay session takes its own copy when it is created. At most FAULTLINE_MAX_UPLOADS are kept (429 past
 * it); each upload and delete is in the audit log; the request side is stored redacted, and a replayed entry whose
 * header could not be sent again is refused with a 400 naming it.
 */
export const recordingRoutes = new Hono<{ Bindings: Env }>()
  .post("/", async (c) => {
    const text = await readCapped(c.req.raw, SIZE_LIMITS.har);
    if (text === undefined) throw payloadTooLarge(SIZE_LIMITS.har);
    const parsed = HarSchema.safeParse(parseJsonBody(text));
    if (!parsed.success) throw validationError(parsed.error);
    const { recording, skipped, badHeader } = harRecording(parsed.data, { extraNames: redactNames(c.env.JOURNAL_REDACT_NAMES) });
    if (badHeader) throw new ApiError(400, "invalid_header", `This HAR cannot be replayed: ${badHeader.message}`, [badHeader]);
    if (recording.truncated !== undefined) {
      throw new ApiError(400, "recording_truncated", `This HAR cannot be replayed: ${recording.truncated}`, [{ path: "log.entries", rule: "whole_recording", message: recording.truncated }]);
    }
    if (recording.exchanges.length === 0) {
      throw new ApiError(400, "nothing_to_replay", "The HAR has no POST whose body is a JSON-RPC request or notification", [{ path: "log.entries", rule: "replayable", message: "no JSON-RPC POST" }]);
    }
    const id = randomHex(16);
    await storeWithinCap(c.env, id, recording);
    await audit(c, "upload", uploadName(id));
    const replay = { scenario: RECORDING_SCENARIO_ID, params: { har: id } };
    return c.json({ id, exchanges: recording.exchanges.length, skipped, replay }, 201);
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    if (!UPLOAD_ID.test(id) || !(await recordingStub(c.env, uploadName(id)).eraseUpload())) throw notFound(id);
    await indexStub(c.env).removeUpload(id);
    await audit(c, "delete-upload", uploadName(id));
    return c.body(null, 204);
  });
