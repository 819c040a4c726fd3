import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { redactCapabilities } from "../../scripts/server-hygiene.ts";

// Finding 11 (part) and 9 of issue 27 on the real `npm start`: its printed request log holds no capability secret,
// the state folder it creates is readable by its owner only, and a short token stops it before it starts.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ADMIN = "admin-token-hygiene-0123456789";
let parent: string;
let stateDir: string;
let server: NpmServer;

before(async () => {
  parent = mkdtempSync(join(tmpdir(), "faultline-hygiene-"));
  stateDir = join(parent, "state", "nested");
  server = await npmStart(stateDir, { FAULTLINE_ADMIN_TOKEN: ADMIN });
});

after(async () => {
  await server?.close();
  rmSync(parent, { recursive: true, force: true });
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...walk(join(dir, e.name))] : [join(dir, e.name)]));
}

test("npm start's printed request log shows a capability URL with its secret redacted", async () => {
  const headers = { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" };
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers, body: JSON.stringify({ id: "logged", scenario: "baseline" }) });
  assert.equal(created.status, 201);
  const mcpUrl = ((await created.json()) as { mcpUrl: string }).mcpUrl;
  const secret = /\/s\/logged\.([A-Za-z0-9_-]+)\/mcp$/.exec(mcpUrl)?.[1];
  assert.ok(secret, mcpUrl);
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
  const res = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(init) });
  assert.equal(res.status, 200);
  await res.text();
  const lines = await server.linesWith("/s/logged.[redacted]/mcp");
  assert.ok(lines.length >= 1, server.log());
  assert.ok(!server.log().includes(secret), "the secret appears nowhere in what npm start printed");
});

test("the state folder npm start creates, and the files in it, are readable by their owner only", async () => {
  const entries = [stateDir, ...walk(stateDir)];
  assert.ok(entries.some((p) => p.endsWith(".sqlite")), `a session's database is among them: ${entries.join(", ")}`);
  for (const path of entries) assert.equal(statSync(path).mode & 0o077, 0, `${path} is ${(statSync(path).mode & 0o777).toString(8)}`);
});

test("npm start refuses an admin token shorter than 16 characters, naming the variable and the rule", () => {
  const run = spawnSync(process.execPath, ["scripts/start.ts"], { cwd: ROOT, env: { ...process.env, FAULTLINE_ADMIN_TOKEN: "short-token", PORT: "0" }, encoding: "utf8" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^npm start: FAULTLINE_ADMIN_TOKEN is 11 characters long; it must be at least 16/m);
});

test("the redaction covers the dot in any case of percent-encoding, and leaves other paths alone", () => {
  assert.equal(redactCapabilities("POST /s/a-1.Zx_9-y/mcp 200"), "POST /s/a-1.[redacted]/mcp 200");
  assert.equal(redactCapabilities("POST /s/a%2eZx9/mcp"), "POST /s/a.[redacted]/mcp");
  assert.equal(redactCapabilities("GET /api/sessions/a 200 /s/plain/mcp"), "GET /api/sessions/a 200 /s/plain/mcp");
});
