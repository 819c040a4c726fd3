import { spawn } from "node:child_process";
import { Interrupted, systemReason, UsageError } from "./errors.ts";

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
 * Being in its own group, the command does not get the Ctrl-C or CI cancel meant for faultline: a SIGINT or SIGTERM
 * to faultline is passed on to the group, and the run then ends with an error once the command has gone. An abort
 * of `crash` kills the group with SIGKILL (the command then ends by that signal).
 */
export function runChild(command: readonly string[], env: Record<string, string>, timeoutMs: number, crash?: AbortSignal): Promise<ChildOutcome> {
  const [file, ...args] = command;
  if (file === undefined) throw new UsageError("missing the client command after --", { suggestHelp: true });
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ["ignore", 2, 2], detached: true });
    let timedOut = false;
    let interrupted: NodeJS.Signals | undefined;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const stop = () => {
      killGroup("SIGTERM");
      grace ??= setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onSignal = (signal: NodeJS.Signals) => {
      interrupted = signal;
      stop();
    };
    process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
    // --restart-after-task: the whole group killed at once, as a crash would end it.
    const onCrash = () => killGroup("SIGKILL");
    crash?.addEventListener("abort", onCrash, { once: true });
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(grace);
      process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
      crash?.removeEventListener("abort", onCrash);
    };
    child.once("error", (error) => {
      done();
      reject(new UsageError(`cannot run ${JSON.stringify(file)}: ${systemReason(error)}`));
    });
    child.once("exit", (exitCode, signal) => {
      done();
      // What the client started and left behind (a helper process, a browser) goes with it.
      killGroup("SIGKILL");
      if (interrupted) reject(new Interrupted(`interrupted by ${interrupted}: the client command was stopped`));
      else resolve({ exitCode, signal, timedOut });
    });
  });
}
