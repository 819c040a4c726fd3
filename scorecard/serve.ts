/** A fresh `npm run serve` on loopback for one scorecard run: its own state folder, an admin token, a free port. */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
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
