import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";

// `npm run serve` (workerd alone): the state folder it creates and the files in it are readable by their owner
// only, what it prints holds no capability secret, and a short token stops it before it builds (issue 27, 9 and 11).

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ADMIN = "admin-token-serve-hygiene-0123456789";
let parent: string;
let stateDir: string;
let server: NpmServer;

before(async () => {
  parent = mkdtempSync(join(tmpdir(), "faultline-serve-hygiene-"));
  stateDir = join(parent, "state");
  server = await npmRun("serve", stateDir, { FAULTLINE_ADMIN_TOKEN: ADMIN });
});

after(async () => {
  await server?.close();
  rmSync(parent, { recursive: true, force: true });
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...walk(join(dir, e.name))] : [join(dir, e.name)]));
}

test("npm run serve stores a session's files readable by their owner only, and prints no capability secret", async () => {
  const created = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ id: "served", scenario: "baseline" }),
  });
  assert.equal(created.status, 201);
  const mcpUrl = ((await created.json()) as { mcpUrl: string }).mcpUrl;
  const secret = /\/s\/served\.([A-Za-z0-9_-]+)\/mcp$/.exec(mcpUrl)?.[1];
  assert.ok(secret, mcpUrl);
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
  const res = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(init) });
  assert.equal(res.status, 200);
  await res.text();
  const entries = [stateDir, ...walk(stateDir)];
  assert.ok(entries.some((p) => p.endsWith(".sqlite")), entries.join(", "));
  for (const path of entries) assert.equal(statSync(path).mode & 0o077, 0, `${path} is ${(statSync(path).mode & 0o777).toString(8)}`);
  assert.ok(!server.log().includes(secret), server.log());
});

test("npm run serve refuses a viewer token shorter than 16 characters before it builds anything", () => {
  const run = spawnSync(process.execPath, ["scripts/serve.ts"], {
    cwd: ROOT,
    env: { ...process.env, FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: "viewer", PORT: "0" },
    encoding: "utf8",
  });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^npm run serve: FAULTLINE_VIEWER_TOKEN is 6 characters long; it must be at least 16/m);
});
