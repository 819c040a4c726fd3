import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capabilitySecret } from "../../src/base/capability-url.ts";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { objectFiles, tablesIn } from "../helpers/state-files.ts";

// With the admin token, a capability URL is checked by its HMAC alone (no index lookup), so a URL that is valid for
// an id with no session (deleted, or never created) reaches a Durable Object. That object must stay empty: no
// schema, no data, so nothing is left behind by such requests.

const ADMIN = "capability-empty-admin-token-0123456789";
let dir: string;
let server: NpmServer;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "faultline-capability-empty-"));
  server = await npmStart(dir, { FAULTLINE_ADMIN_TOKEN: ADMIN });
});
after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${ADMIN}` };
const mcpPost = (url: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });

/**
 * Object files that hold a table of Faultline's. (Under `npm start`, miniflare writes `__miniflare_do_name`, the
 * name an object was addressed by, into every object it starts: the platform's bookkeeping, not Faultline's.)
 */
const faultlineTables = (path: string) => tablesIn(path).filter((name) => !name.startsWith("__miniflare_"));
async function filesWithTables(): Promise<string[]> {
  return [...(await objectFiles(dir)).keys()].filter((path) => faultlineTables(path).length > 0).sort();
}

test("a valid capability URL of a deleted or never-created session answers 404 and writes no schema", async () => {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", id: "gone-soon" }) });
  assert.equal(created.status, 201);
  const { mcpUrl } = (await created.json()) as { mcpUrl: string };
  assert.equal((await fetch(`${server.url}/api/sessions/gone-soon`, { method: "DELETE", headers: auth })).status, 204);
  const before = await filesWithTables();

  const neverMade = `${server.url}/s/never-made.${await capabilitySecret({ FAULTLINE_ADMIN_TOKEN: ADMIN }, "never-made")}/mcp`;
  for (const url of [mcpUrl, neverMade]) {
    for (let i = 0; i < 3; i++) assert.equal((await mcpPost(url)).status, 404, url);
  }
  const afterFiles = await filesWithTables();
  assert.deepEqual(afterFiles, before, `no object gained a table: ${afterFiles.filter((f) => !before.includes(f)).map((f) => faultlineTables(f).join(",")).join(" / ")}`);
});
