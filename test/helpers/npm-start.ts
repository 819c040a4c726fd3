/** The real server as a user runs it: `npm start` (wrangler dev) or `npm run serve` (workerd), with a persistent state directory. */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** How long a start may take before the test gives up (serve builds the bundle first); a guard against hanging, not an assertion. */
const START_DEADLINE_MS = 180_000;
/** How long close() waits after SIGTERM before it sends SIGKILL to the process group. */
const KILL_GRACE_MS = 10_000;

export interface NpmServer {
  /** http://127.0.0.1:<ephemeral port> */
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  log(): string;
  /** The printed lines that contain `text`, once there is at least one (the ready line may follow the first /health answer). */
  linesWith(text: string): Promise<string[]>;
  /**
   * Sends `signal` to the whole process group (as Ctrl-C in a terminal or systemd's stop does), SIGKILL after a grace
   * period, and waits for npm to exit; true if it had to be killed.
   */
  stop(signal: NodeJS.Signals): Promise<boolean>;
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

/** `npm start` (wrangler dev); see npmRun. */
export function npmStart(stateDir?: string, env: Record<string, string> = {}): Promise<NpmServer> {
  return npmRun("start", stateDir, env);
}

/**
 * Spawns `npm start` or `npm run serve` on an ephemeral port in its own process group and waits until /health answers.
 * `stateDir` is the state directory to use (kept on close, so that a second start can reuse it); without it, a fresh
 * temporary one. `env` adds environment variables (FAULTLINE_PUBLIC_URL, wrangler.toml's vars).
 */
export async function npmRun(script: "start" | "serve", stateDir?: string, env: Record<string, string> = {}): Promise<NpmServer> {
  // freePort() is a probe, not a reservation: on a shared machine another process may bind the port first. Try again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(script, stateDir, env);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("Address already in use")) throw error;
    }
  }
}

async function startOnce(script: "start" | "serve", stateDir: string | undefined, env: Record<string, string>): Promise<NpmServer> {
  const ownStateDir = stateDir === undefined;
  const dir = stateDir ?? (await mkdtemp(join(tmpdir(), "faultline-state-")));
  const port = await freePort();
  const child = spawn("npm", ["run", script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), FAULTLINE_STATE_DIR: dir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
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
  const groupAlive = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 0);
      return child.pid !== undefined;
    } catch {
      return false;
    }
  };
  const stop = async (name: NodeJS.Signals) => {
    let killed = false;
    signal(name);
    const timer = setTimeout(() => {
      killed = groupAlive();
      if (child.pid !== undefined && killed) process.kill(-child.pid, "SIGKILL");
    }, KILL_GRACE_MS);
    await exited;
    // npm may exit before its children: wait for the whole group (workerd draining included).
    const deadline = Date.now() + KILL_GRACE_MS + 5_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    clearTimeout(timer);
    return killed;
  };
  const close = async () => {
    await stop("SIGTERM");
    if (ownStateDir) await rm(dir, { recursive: true, force: true });
  };
  const linesWith = async (text: string) => {
    for (let waited = 0; !log.includes(text) && waited < START_DEADLINE_MS; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    return log.split("\n").filter((line) => line.includes(text));
  };
  const server: NpmServer = { url: `http://127.0.0.1:${port}`, log: () => log, linesWith, stop, close };

  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (gone) {
      await close();
      throw new Error(`npm run ${script} exited before answering /health:\n${log}`);
    }
    const ok = await fetch(`${server.url}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return server;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`npm run ${script} did not answer /health within ${START_DEADLINE_MS} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
