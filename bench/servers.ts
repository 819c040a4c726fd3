/**
 * The servers `npm run bench` compares, each on 127.0.0.1 and an ephemeral port, each with its own fresh state folder:
 * Faultline under `npm run serve` and `npm start`, the platform's floor (bench/floor/worker.js on the same workerd,
 * configured by the same generator as `npm run serve`), and the official SDK's server (bench/sdk-server.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { workerdConfig } from "../scripts/workerd-config.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const STARTUP_MS = 120_000;

export interface Running {
  url: string;
  /** The process that does the serving work (workerd, or the SDK's Node process): its memory is read from /proc. */
  pid: number;
  stop(): Promise<void>;
}

/** Resolves with the first stdout line `match` accepts; rejects when the process exits first or after STARTUP_MS. */
function waitForLine<T>(child: ChildProcess, what: string, match: (line: string) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${STARTUP_MS} ms`)), STARTUP_MS);
    child.once("exit", (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const found = match(line);
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export const stateDir = () => mkdtemp(join(tmpdir(), "faultline-bench-"));

/** The first child process of `pid` (scripts/serve.ts runs workerd as its only child). */
async function childPid(pid: number): Promise<number> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8")).trim().split(/\s+/).filter(Boolean);
  if (!children[0]) throw new Error(`process ${pid} has no child`);
  return Number(children[0]);
}

/**
 * `npm run serve` (scripts/serve.ts): builds the production bundle and runs it on workerd. `vars` override [vars].
 * With `state`, serves that folder and leaves it in place on stop; otherwise a fresh one, removed on stop. `root`: the
 * checkout to serve (bench/ab.ts serves two).
 */
export async function startServe(vars: Record<string, string> = {}, keep?: { state: string }, root = ROOT): Promise<Running> {
  const state = keep?.state ?? (await stateDir());
  const child = spawn(process.execPath, [join(root, "scripts/serve.ts")], {
    cwd: root,
    env: { ...process.env, ...vars, HOST: "127.0.0.1", PORT: "0", FAULTLINE_STATE_DIR: state },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await waitForLine(child, "npm run serve", (line) => /Dashboard: (http:\/\/\S+?)\/ /.exec(line)?.[1]);
  const removeState = () => (keep ? Promise.resolve() : rm(state, { recursive: true, force: true }));
  return { url, pid: await childPid(child.pid!), stop: async () => (await stopChild(child), await removeState()) };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` (scripts/start.ts, wrangler dev); it polls a fixed port, so a free one is picked first. */
export async function startDev(vars: Record<string, string> = {}): Promise<Running> {
  const state = await stateDir();
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...vars, HOST: "127.0.0.1", PORT: String(port), FAULTLINE_STATE_DIR: state, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true, // its own process group, so that wrangler's workerd goes with it
  });
  const url = await waitForLine(child, "npm start", (line) => /Dashboard: (http:\/\/\S+?)\/ /.exec(line)?.[1]);
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
      await rm(state, { recursive: true, force: true });
    },
  };
}

/** Runs `workerd serve` on a config; the port comes from workerd's control channel (fd 3), as in scripts/serve.ts. */
export async function startWorkerd(configPath: string, cwd: string, extraArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const workerd = (require("workerd") as { default: string }).default;
  const child = spawn(workerd, ["serve", configPath, "config", "--control-fd=3", ...extraArgs], { cwd, stdio: ["ignore", "pipe", "inherit", "pipe"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`workerd exited with ${code} before it listened`)));
    createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on("line", (line) => {
      const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
      if (message.event === "listen" && message.socket === "http" && message.port !== undefined) resolve(message.port);
    });
  });
  return { child, port };
}

/** The floor: bench/floor/worker.js on workerd, with a config from scripts/workerd-config.ts like `npm run serve`'s. */
export async function startFloor(): Promise<Running> {
  const dir = await stateDir();
  await copyFile(join(ROOT, "bench/floor/worker.js"), join(dir, "worker.js"));
  const durableObjectDir = join(dir, "do");
  await mkdir(durableObjectDir);
  const wrangler = (await import("../scripts/settings.ts")).loadProject(ROOT, {}).wrangler;
  const config = workerdConfig({
    modules: ["worker.js"],
    compatibilityDate: wrangler.compatibility_date!,
    compatibilityFlags: wrangler.compatibility_flags,
    vars: {},
    durableObjects: [{ binding: "FLOOR", className: "Floor" }],
    workerName: "bench-floor",
    durableObjectDir,
    address: "127.0.0.1:0",
  });
  await writeFile(join(dir, "config.capnp"), config);
  const { child, port } = await startWorkerd(join(dir, "config.capnp"), dir);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: async () => (await stopChild(child), await rm(dir, { recursive: true, force: true })) };
}

/** The official SDK's server (bench/sdk-server.ts) in a Node process of its own. */
export async function startSdk(): Promise<Running> {
  const child = spawn(process.execPath, [join(ROOT, "bench/sdk-server.ts")], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const port = await waitForLine(child, "the SDK server", (line) => (line.startsWith("{") ? (JSON.parse(line) as { port: number }).port : undefined));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

/** Resident memory of a process in KiB (VmRSS of /proc/PID/status). */
export async function residentKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
}
