import { ApiError } from "../api-error.ts";
import type { Recording } from "../recording/exchange.ts";
import { indexStub } from "../session/index-stub.ts";
import { recordingStub, uploadName } from "../session/recording-stub.ts";

/** The most uploaded HARs a server keeps unless FAULTLINE_MAX_UPLOADS says otherwise. */
export const DEFAULT_MAX_UPLOADS = 100;

/**
 * FAULTLINE_MAX_UPLOADS as a positive integer, or the default. Uploading past it answers 429: each upload is a
 * Durable Object with its own SQLite file (up to 8 MiB of bodies), so the cap bounds the disk uploads can fill, apart
 * from the sessions' own cap (FAULTLINE_MAX_SESSIONS).
 */
export function maxUploads(vars: { FAULTLINE_MAX_UPLOADS?: string }): number {
  const n = Number(vars.FAULTLINE_MAX_UPLOADS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_UPLOADS;
}

/** Stores an uploaded HAR's recording within the cap: the index lists it first (count and insert in one call). */
export async function storeWithinCap(env: Env, id: string, recording: Recording): Promise<void> {
  const index = indexStub(env);
  const cap = maxUploads(env);
  if ((await index.reserveUpload(id, new Date().toISOString(), cap)) === "full") {
    throw new ApiError(429, "upload_limit", `The server keeps its maximum of ${cap} uploaded HARs (FAULTLINE_MAX_UPLOADS): delete one first (DELETE /api/recordings/{id})`);
  }
  try {
    await recordingStub(env, uploadName(id)).storeUpload(recording);
  } catch (error) {
    await index.removeUpload(id);
    throw error;
  }
}
