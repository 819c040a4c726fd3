/** The CLI as a user installs it: built into one file, copied outside the checkout, run by the system's own node. */
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before } from "node:test";
import { buildCli } from "../../bin/build-cli.ts";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The first `node` on PATH outside any node_modules (npm puts node_modules/.bin first, and this project's Node 22 is
 * there): the system node a user has, Node 20 on the project's machines. Falls back to this test's node.
 */
export function systemNode(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "" || dir.includes("node_modules")) continue;
    const candidate = join(dir, "node");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return process.execPath;
}

/** Builds the CLI once for the test file into a fresh directory outside the checkout, removed afterwards. */
export function useBuiltCli() {
  let dir: string | undefined;
  const node = systemNode();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "faultline-cli-"));
    await buildCli(join(dir, "faultline.mjs"));
  });
  after(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));
  const file = () => {
    if (dir === undefined) throw new Error("the CLI is not built yet: use it inside a test or a hook");
    return join(dir, "faultline.mjs");
  };
  const options = (env: Record<string, string>) => ({ cwd: dir, env: { ...process.env, COLUMNS: "", ...env } });
  return {
    node,
    /** The built file's path. */
    get file() {
      return file();
    },
    /** The directory the CLI runs in (outside the checkout). */
    get dir() {
      file();
      return dir!;
    },
    /** Runs it synchronously with `input` on stdin. */
    run(args: string[], input = "", env: Record<string, string> = {}): CliResult {
      const result = spawnSync(node, [file(), ...args], { ...options(env), input, encoding: "utf8" });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    /** Starts it without blocking the test's event loop (needed while an in-process server answers it). */
    start(args: string[], env: Record<string, string> = {}) {
      const child = spawn(node, [file(), ...args], { ...options(env), stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const result = new Promise<CliResult>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (code) => resolve({ code, stdout, stderr }));
      });
      return { child, result };
    },
    runAsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
      return this.start(args, env).result;
    },
  };
}

/** The version of a node binary, like "v20.20.2". */
export function nodeVersion(node: string): string {
  return spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
}
