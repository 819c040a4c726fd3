import { setTimeout as sleep } from "node:timers/promises";
import { type ChildOutcome, runChild } from "./child.ts";

/** How often the journal is read for the first task while the client runs. */
const WATCH_MS = 200;

/** How a run with --restart-after-task went: the restart (when a task was created) and how the last run ended. */
export interface RestartOutcome extends ChildOutcome {
  /** The journal seq of the tools/call answered with a task, when the client was restarted after it. */
  restartedAfterSeq?: number;
}

/**
 * --restart-after-task: runs the client command; once the journal holds a request answered with a task (its verdict
 * TASK_CREATED), kills the command's process group with SIGKILL, as a crash would, and runs it once more with
 * FAULTLINE_RESTARTED=1 within what is left of the deadline. A client that persisted its task id (SEP-2663: clients
 * SHOULD, "so that polling can resume after a crash or restart") polls the same task on; task-resumed-after-restart
 * judges it.
 */
export async function runWithRestart(command: readonly string[], env: Record<string, string>, timeoutMs: number, taskCreated: () => Promise<number | undefined>): Promise<RestartOutcome> {
  const started = performance.now();
  const crash = new AbortController();
  let exited = false;
  let seq: number | undefined;
  const first = runChild(command, env, timeoutMs, crash.signal).finally(() => {
    exited = true;
  });
  const watch = (async () => {
    while (!exited && seq === undefined) {
      await sleep(WATCH_MS);
      if (!exited) seq = await taskCreated();
    }
    if (seq !== undefined && !exited) crash.abort();
  })();
  const outcome = await first;
  await watch;
  if (seq === undefined || outcome.timedOut || !crash.signal.aborted) return outcome;
  process.stderr.write(`faultline: the client was killed (SIGKILL) after the task created at seq ${seq}; running it again with FAULTLINE_RESTARTED=1\n`);
  const left = Math.max(1, timeoutMs - (performance.now() - started));
  const second = await runChild(command, { ...env, FAULTLINE_RESTARTED: "1" }, left);
  return { ...second, restartedAfterSeq: seq };
}
