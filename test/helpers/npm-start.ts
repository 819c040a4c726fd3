/** The real server as a user runs it: `npm start` (wrangler dev with a persistent state directory). */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** How long a start may take before the test gives up; a guard against hanging, not an assertion. */
const START_DEADLINE_MS = 90_000;
/** How long close() waits after SIGTERM before it sends SIGKILL to the process group. */
const KILL_GRACE_MS = 10_000;

export interface NpmServer {
  /** http://127.0.0.1:<ephemeral port> */
  url: string;
  /** SIGTERM to the whole process group (npm, sh, wrangler, workerd), SIGKILL after a grace period, then waits for npm to exit. Removes the state directory only if npmStart made it. */
  close(): Promise<void>;
}

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

/**
 * Spawns `npm start` on an ephemeral port in its own process group and waits until /health answers.
 * `stateDir` is the state directory to use (kept on close, so that a second start can reuse it); without it, a fresh temporary one.
 */
export async function npmStart(stateDir?: string): Promise<NpmServer> {
  const ownStateDir = stateDir === undefined;
  const dir = stateDir ?? (await mkdtemp(join(tmpdir(), "faultline-state-")));
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), FAULTLINE_STATE_DIR: dir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      log += `\n${error}`;
      resolve();
    });
  }).then(() => {
    gone = true;
  });

  const signal = (name: NodeJS.Signals) => {
    try {
      if (!gone && child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  const close = async () => {
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
    if (ownStateDir) await rm(dir, { recursive: true, force: true });
  };
  const server: NpmServer = { url: `http://127.0.0.1:${port}`, close };

  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (gone) {
      await close();
      throw new Error(`npm start exited before answering /health:\n${log}`);
    }
    const ok = await fetch(`${server.url}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return server;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`npm start did not answer /health within ${START_DEADLINE_MS} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
