import { Hono } from "hono";
import { catalogue } from "../scenarios/index.ts";

// The catalogue is fixed for the life of the Worker: its body (JSON Schemas and all, ~56 KB) is built once, on first
// use (building the schemas took about 80% of each request's CPU), and kept as UTF-8 bytes. From a string, workerd
// re-encodes all of it on every Response; from bytes it only copies them: 194 → 119 µs of workerd CPU per request
// (changes/classify-speed-notes.md). A Response copies the bytes it is given, so one array serves every request.
let body: Uint8Array<ArrayBuffer> | undefined;

/** The catalogue's JSON as UTF-8 (copied once into an array typed as backed by an ArrayBuffer, as Hono's body wants). */
function catalogueBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(JSON.stringify({ scenarios: catalogue() })));
}

export const scenarioRoutes = new Hono<{ Bindings: Env }>().get("/", (c) => c.body((body ??= catalogueBytes()), 200, { "content-type": "application/json" }));
