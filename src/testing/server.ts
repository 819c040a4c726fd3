import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../cli/package-root.ts";
import { connectFaultline, type Faultline } from "./client.ts";

/** How long the server may take to print its ready line. */
const READY_MS = 60_000;

export interface StartOptions {
  /** More environment for the server, e.g. FAULTLINE_ADMIN_TOKEN or one of wrangler.toml's [vars]. */
  env?: Record<string, string>;
}

/** A server started by startFaultline: the client API plus stop() (also `await using`). */
export interface StartedFaultline extends Faultline {
  /** Stops the server and removes its state folder; safe to call more than once. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts `faultline start` on an ephemeral loopback port with its state in a fresh temporary folder, and resolves
 * once it is ready. Stop it with stop() (or `await using`): that ends the server and removes the folder.
 */
export async function startFaultline(options: StartOptions = {}): Promise<StartedFaultline> {
  const root = packageRoot();
  if (root === undefined) throw new Error("faultline/testing: cannot find Faultline's package.json around this file");
  const stateDir = await mkdtemp(join(tmpdir(), "faultline-test-"));
  const env: NodeJS.ProcessEnv = { ...process.env, FAULTLINE_PUBLIC_URL: "", ...options.env, HOST: "127.0.0.1", PORT: "0", FAULTLINE_STATE_DIR: stateDir };
  const child = spawn(process.execPath, [join(root, "dist", "faultline.mjs"), "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(stateDir, { recursive: true, force: true });
    })());
  try {
    const url = await ready(child);
    return { ...connectFaultline(url, { token: env.FAULTLINE_ADMIN_TOKEN }), stop, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The server's base URL, from its ready line ("… Dashboard: http://127.0.0.1:PORT/  MCP endpoint: …"). */
function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => fail(`no ready line within ${READY_MS} ms`), READY_MS);
    function fail(why: string) {
      clearTimeout(timer);
      reject(new Error(`faultline/testing: the server did not start: ${why}\n${stderr}${stdout}`));
    }
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Dashboard: (\S+?)\/ /.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? `status ${code}`})`));
  });
}
