import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// The real `npm start` (wrangler dev with a persistent state dir), as a user runs it.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** How long a start may take before the test gives up; a guard against hanging, not an assertion. */
const START_DEADLINE_MS = 90_000;

interface Running {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

const started: Running[] = [];
let stateDir: string;
let first: Running;

/** An ephemeral port that was free a moment ago: bind 127.0.0.1:0, read the port, close. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Spawns `npm start` in its own process group and waits until /health answers. */
async function npmStart(): Promise<Running> {
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), FAULTLINE_STATE_DIR: stateDir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running: Running = { url: `http://127.0.0.1:${port}`, child, output: () => log, exited };
  started.push(running);

  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`npm start exited before answering /health:\n${log}`);
    const ok = await fetch(`${running.url}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return running;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm start did not answer /health within ${START_DEADLINE_MS} ms:\n${log}`);
}

/** SIGTERM to the whole process group (npm, sh, wrangler, workerd), then wait for npm to exit. */
async function stop(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null && running.child.pid !== undefined) {
    try {
      process.kill(-running.child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  await running.exited;
}

before(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "faultline-state-"));
  first = await npmStart();
});

after(async () => {
  for (const running of started) {
    if (running.child.exitCode === null && running.child.signalCode === null && running.child.pid !== undefined) {
      try {
        process.kill(-running.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  await Promise.all(started.map((r) => r.exited));
  rmSync(stateDir, { recursive: true, force: true });
});

async function api(base: string, path: string, method = "GET", body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

test("npm start serves the default baseline session at /mcp, and the v2 client calls echo there", async () => {
  const client = new Client({ name: "faultline-e2e", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`)));
    assert.equal(client.getProtocolEra(), "modern");
    const result = await client.callTool({ name: "echo", arguments: { text: "hello from npm start" } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, [{ type: "text", text: "hello from npm start" }]);
  } finally {
    await client.close();
  }
  const view = await api(first.url, "/sessions/default");
  assert.equal(view.status, 200);
  assert.equal(view.json.scenario, "baseline");
});

test("a slug session and its changed scenario survive a restart of npm start on the same state dir", async () => {
  const id = `e2e-${process.pid}`;
  assert.equal((await api(first.url, "/sessions", "POST", { scenario: "baseline", id })).status, 201);
  const changed = await api(first.url, `/sessions/${id}/scenario`, "PUT", { scenario: "errors.tool_error", params: { tools: ["echo"], nth: 2 } });
  assert.equal(changed.status, 200, JSON.stringify(changed.json));

  await stop(first);
  const second = await npmStart();
  assert.notEqual(second.url, first.url);

  const view = await api(second.url, `/sessions/${id}`);
  assert.equal(view.status, 200, JSON.stringify(view.json));
  assert.equal(view.json.scenario, "errors.tool_error");
  assert.deepEqual(view.json.params, { nth: 2, tools: ["echo"], text: "The tool failed: upstream inventory service is unavailable (injected by Faultline).", responseMode: "json" });
  assert.equal(view.json.mcpUrl, `${second.url}/s/${id}/mcp`);
  const list = await api(second.url, "/sessions");
  assert.equal(list.json.sessions.find((s: Record<string, unknown>) => s.id === id)?.scenario, "errors.tool_error");

  // The restored scenario is the one in effect: the second echo fails as configured.
  const client = new Client({ name: "faultline-e2e", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${second.url}/s/${id}/mcp`)));
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "one" } })).isError, undefined);
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "two" } })).isError, true);
  } finally {
    await client.close();
  }
});
