import { spawn } from "node:child_process";
import { UsageError } from "./errors.ts";

/** How the client command ended. */
export interface ChildOutcome {
  /** Its exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Whether it was still running at the deadline, and so was killed. */
  timedOut: boolean;
}

/** After SIGTERM at the deadline, how long the process group gets before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * Runs `command` (no shell) with `env` added to this process's environment, in a process group of its own so that
 * a timeout ends everything it started; its output goes to stderr, keeping stdout for the results table.
 */
export function runChild(command: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<ChildOutcome> {
  const [file, ...args] = command;
  if (file === undefined) throw new UsageError("missing the client command after --", { suggestHelp: true });
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ["ignore", 2, 2], detached: true });
    let timedOut = false;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      grace = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(deadline);
      const code = "code" in error ? String(error.code) : error.message;
      reject(new UsageError(`cannot run ${JSON.stringify(file)}: ${code}`));
    });
    child.once("exit", (exitCode, signal) => {
      clearTimeout(deadline);
      clearTimeout(grace);
      // What the client started and left behind (a helper process, a browser) goes with it.
      killGroup("SIGKILL");
      resolve({ exitCode, signal, timedOut });
    });
  });
}
