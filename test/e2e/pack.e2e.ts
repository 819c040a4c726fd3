/**
 * The package as a new user gets it: `npm pack` in the checkout, `npm install -g` of the tarball into an empty prefix
 * outside it, then `faultline start`, `faultline run` from a faultline.json with a small client, and
 * `faultline checks`, all on the system node (Node 20 on the project's machines). Slow (it packs and installs), so it
 * is an end-to-end suite (`npm run test:e2e`), not part of `npm test`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeVersion, systemNode } from "../cli/built-cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const dir = mkdtempSync(join(tmpdir(), "faultline-pack-"));
const prefix = join(dir, "prefix");
const home = join(dir, "home");
const work = join(dir, "work");
const node = systemNode();
// PATH as on a clean machine: the prefix's bin, then the system node's folder; nothing from the checkout.
const PATH = [join(prefix, "bin"), dirname(node), ...(process.env.PATH ?? "").split(delimiter).filter((d) => d !== "" && !d.includes("node_modules") && !d.startsWith(ROOT))].join(delimiter);
const { NODE_TEST_CONTEXT: _, FAULTLINE_STATE_DIR: _s, XDG_STATE_HOME: _x, ...baseEnv } = process.env;
const env = { ...baseEnv, PATH, HOME: home, NO_COLOR: "1" };

function check(what: string, result: SpawnSyncReturns<string>): string {
  assert.equal(result.status, 0, `${what} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
const faultline = (args: string[], extra: Record<string, string> = {}) => spawnSync("faultline", args, { cwd: work, env: { ...env, ...extra }, encoding: "utf8" });

let server: ReturnType<typeof spawn> | undefined;
let url = "";
let ready = "";

before(async () => {
  mkdirSync(home);
  mkdirSync(work);
  // prepack builds the CLI, the library, the server bundle and the schema on this test's Node 22.
  check("npm pack", spawnSync("npm", ["pack", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" }));
  const tarball = readdirSync(dir).find((f) => /^faultline-.*\.tgz$/.test(f));
  assert.ok(tarball, "npm pack wrote faultline-*.tgz");
  // The system npm, run by the system node; the local cache first, the registry only for what it lacks.
  check("npm install -g", spawnSync("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(dir, tarball)], { cwd: work, env, encoding: "utf8" }));
  server = spawn("faultline", ["start"], { cwd: work, env: { ...env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  server.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    server!.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^Faultline \(.*\) is ready\. Dashboard: (\S+?)\/ .*$/m.exec(out);
      if (match) {
        ready = match[0];
        resolve(match[1]!);
      }
    });
    server!.once("exit", (code) => reject(new Error(`faultline start exited with ${code}:\n${out}`)));
  });
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test("the installed faultline runs on the system node and prints the package's version", () => {
  assert.equal(check("faultline --version", faultline(["--version"])), `${version}\n`);
  assert.equal(check("faultline --version", spawnSync(node, [join(prefix, "lib", "node_modules", "faultline", "dist", "faultline.mjs"), "--version"], { encoding: "utf8" })), `${version}\n`);
  assert.ok(nodeVersion(node).length > 0);
});

test("faultline start serves from the package, with its state in the per-user folder", async () => {
  assert.match(ready, new RegExp(`^Faultline \\(faultline start, state in ${join(home, ".local", "state", "faultline").replace(/[.]/g, "\\.")}\\) is ready\\. Dashboard: http://127\\.0\\.0\\.1:\\d+/  MCP endpoint: http://127\\.0\\.0\\.1:\\d+/mcp$`));
  const health = await fetch(`${url}/health`);
  assert.equal(health.status, 200);
  assert.ok(readdirSync(join(home, ".local", "state", "faultline", "v3", "do")).length > 0, "the Durable Objects are stored in the state folder");
});

test("faultline run reads faultline.json, runs the client, and faultline checks reads its session", () => {
  // A small client on the system node: one tools/call, retried after the wait Retry-After asks for.
  writeFileSync(
    join(work, "client.mjs"),
    `const url = process.env.FAULTLINE_MCP_URL;
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "pack-test", version: "0" } };
for (let id = 1; id <= 3; id++) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" }, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, _meta: meta } }) });
  await res.arrayBuffer();
  if (res.ok) break;
  await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? "1") * 1000));
}
`,
  );
  const config = {
    $schema: "./node_modules/faultline/dist/faultline.schema.json",
    scenarios: [{ id: "errors.http_status_sequence", params: { statusCodes: [503, 200], retryAfter: 1 } }],
    command: ["node", "client.mjs"],
    timeout: 30,
    reports: { json: "report.json" },
    keep: true,
  };
  writeFileSync(join(work, "faultline.json"), JSON.stringify(config));
  const out = check("faultline run", faultline(["run"], { FAULTLINE_SERVER: url }));
  assert.match(out, /^errors\.http_status_sequence .* pass$/m);
  assert.match(out, /the run passes$/m);
  const report = JSON.parse(readFileSync(join(work, "report.json"), "utf8")) as { scenarios: Array<{ sessionId: string }> };
  const id = report.scenarios[0]?.sessionId;
  assert.ok(id, readFileSync(join(work, "report.json"), "utf8"));
  const sessions = JSON.parse(check("faultline sessions", faultline(["sessions", "--json", "--server", url]))) as Array<{ id: string }>;
  assert.ok(sessions.some((s) => s.id === id), "--keep kept the session");
  const checks = check("faultline checks", faultline(["checks", id, "--server", url]));
  assert.match(checks, /^pass {4}http-retry-after-honoured: /m);
});

test("the shipped JSON Schema is there for editors", () => {
  const schema = JSON.parse(readFileSync(join(prefix, "lib", "node_modules", "faultline", "dist", "faultline.schema.json"), "utf8")) as { required: string[] };
  assert.deepEqual(schema.required.sort(), ["command", "scenarios"]);
});
