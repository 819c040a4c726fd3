import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RunReportSchema } from "../../src/cli/json-report.ts";
import { useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";

// `faultline run --restart-after-task` as a CI job runs it (the built CLI, a real server): the client is killed once
// its call is answered with a task and run again with FAULTLINE_RESTARTED=1. A client that kept its task id resumes
// it; one that forgot it starts the work again.
const server = useServer();
const cli = useBuiltCli();
const CLIENT = [process.execPath, fileURLToPath(new URL("clients/task-restart.ts", import.meta.url))];

async function runRestart(mode: "persist" | "forget") {
  const tag = Math.random().toString(36).slice(2);
  const report = join(cli.dir, `restart-${tag}.json`);
  const env = { TASK_STATE_FILE: join(cli.dir, `task-${tag}.txt`), TASK_CLIENT_MODE: mode };
  const result = await cli.runAsync(["run", "--server", server.url, "--scenario", "conformance", "--restart-after-task", "--timeout", "30", "--json", report, "--", ...CLIENT], env);
  const parsed = RunReportSchema.parse(JSON.parse(readFileSync(report, "utf8")));
  const checks = parsed.scenarios[0]!.checks.filter((c) => c.id === "task-resumed-after-restart");
  return { result, checks };
}

test("faultline run --restart-after-task kills the client after its task is created; a client that kept the task id resumes it and passes", async () => {
  const { result, checks } = await runRestart("persist");
  assert.match(result.stderr, /the client was killed \(SIGKILL\) after the task created at seq \d+; running it again with FAULTLINE_RESTARTED=1/);
  assert.equal(checks.length, 1, JSON.stringify(checks));
  assert.equal(checks[0]!.status, "pass", checks[0]!.message);
  assert.match(checks[0]!.message, /started over \(server\/discover at seq \d+\) while task .* of slow_compute .* resumed it: tasks\/get at seq \d+ names the same taskId/);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});

test("faultline run --restart-after-task fails a client that forgot its task id and started the work again", async () => {
  const { result, checks } = await runRestart("forget");
  assert.equal(checks[0]?.status, "fail", JSON.stringify(checks));
  assert.match(checks[0]!.message, /never named the task again: it lost the task id .* It called slow_compute again at seq \d+ instead/);
  assert.equal(result.code, 1, "a failed check fails the run");
});
