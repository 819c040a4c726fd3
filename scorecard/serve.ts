/** A fresh `npm run serve` on loopback for one scorecard run: its own state folder, an admin token, a free port. */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Served {
  url: string;
  token: string;
  stop(): Promise<void>;
}

export async function serve(): Promise<Served> {
  const state = await mkdtemp(join(tmpdir(), "scorecard-state-"));
  const token = randomBytes(24).toString("hex");
  const child = spawn(process.execPath, [join(ROOT, "scripts", "serve.ts")], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", FAULTLINE_STATE_DIR: state, FAULTLINE_ADMIN_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      log += chunk;
      const ready = /is ready\. Dashboard: (http:\/\/127\.0\.0\.1:\d+)\//.exec(log);
      if (ready) resolve(ready[1]!);
    });
    child.once("exit", (code) => reject(new Error(`npm run serve exited (${code}) before it was ready:\n${log}`)));
  });
  return { url, token, stop: () => stop(child, state) };
}

async function stop(child: ChildProcess, state: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await rm(state, { recursive: true, force: true });
}

/** scorecard/cloudflare-agents under `wrangler dev` on a free loopback port, for the Cloudflare agents columns. */
export async function wranglerDev(): Promise<Served> {
  const state = await mkdtemp(join(tmpdir(), "scorecard-agents-"));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const wrangler = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
  const child = spawn(process.execPath, [wrangler, "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state, "--show-interactive-dev-session=false"], {
    cwd: join(ROOT, "scorecard", "cloudflare-agents"),
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      log += chunk;
      const ready = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (ready) resolve(ready[1]!);
    });
    child.once("exit", (code) => reject(new Error(`wrangler dev exited (${code}) before it was ready:\n${log}`)));
  });
  return { url, token: "", stop: () => stop(child, state) };
}
