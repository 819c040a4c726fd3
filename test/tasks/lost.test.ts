import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";
import { checksById, extTasksSession, scriptedSession } from "../helpers/tasks.ts";

// tasks.lost over loopback (after 2, tasks 1): the first task polled is answered -32602 "Task not found" from its
// third tasks/* request on, as a server that lost it in a restart; a task created after that lives on. A scripted
// client that polls the lost id on and on, one that creates the task again, and the ext-tasks client (0.2.2).

type Json = Record<string, any>;
const server = useServer();

const checksOf = (sessionId: string, entries: number) => checksById(server, sessionId, entries, "task-");

/** A scripted client of long_job; when a poll gets -32602 it either polls on (`recreate` false) or calls long_job again. */
async function scripted(recreate: boolean) {
  const session = await scriptedSession(server, "tasks.lost");
  const post = session.postJson;
  const start = async (seconds: number) => (await post("tools/call", { name: "long_job", arguments: { seconds } }, "long_job")).result as Json;
  let task = await start(3); // still working when it is lost, at its third poll

  const taskIds = [task.taskId as string];
  let refusals = 0;
  for (let i = 0; i < 12 && task.status !== "completed"; i++) {
    await sleep(500);
    const body = await post("tasks/get", { taskId: taskIds.at(-1) }, taskIds.at(-1)!);
    if (body.error === undefined) {
      task = body.result;
      continue;
    }
    assert.equal(body.error.code, -32602);
    refusals++;
    if (!recreate) continue;
    task = await start(3); // the same call again
    taskIds.push(task.taskId);
  }
  const calls = (await journalOf(server.url, session.sessionId, session.sent())).filter((e) => e.rpc.method === "tools/call");
  return { task, taskIds, refusals, calls, checks: await checksOf(session.sessionId, session.sent()) };
}

test("a client that polls a lost task on and on fails task-polling-bounded", async () => {
  const { taskIds, refusals, checks } = await scripted(false);
  assert.equal(taskIds.length, 1);
  assert.equal(refusals, 10, "every poll from the third on was refused");
  const c = checks["task-polling-bounded"];
  assert.equal(c?.status, "fail", c?.message);
  assert.match(c!.message, /After the -32602 "Failed to retrieve task: Task not found" at seq \d+ to tasks\/get of task .* of long_job \(seq 1\), the client polled it 9 more times \(more than 3\)/);
  assert.equal(checks["task-polled-to-terminal"], undefined, "a lost task is judged by task-polling-bounded alone");
});

test("a client that creates a lost task again passes task-polling-bounded, named as a re-creation, and polls the new task to completion", async () => {
  const { task, taskIds, refusals, calls, checks } = await scripted(true);
  assert.equal(refusals, 1);
  assert.deepEqual(calls.map((e) => [e.verdict?.outcome, e.retryOf]), [["TASK_CREATED", undefined], ["TASK_CREATED", undefined]], "a call answered with a task is a success, so the second call is no retry of it");
  assert.equal(taskIds.length, 2);
  assert.equal(task.status, "completed", "the task created again is not lost");
  const c = checks["task-polling-bounded"];
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c!.message, new RegExp(`the client stopped polling it, and re-created it: tools/call long_job again at seq \\d+, answered with task ${taskIds[1]!.slice(0, 8)}…`));
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, new RegExp(taskIds[1]!.slice(0, 8)));
});

test("the ext-tasks client (0.2.2) ends the execution at the first -32602 and polls no more: task-polling-bounded passes", async (t: TestContext) => {
  const { tasks, sessionId, posts } = await extTasksSession(t, server, "tasks.lost");
  const execution = await tasks.callTool("long_job", { seconds: 5 });
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "failed", JSON.stringify(outcome));
  assert.match(outcome.status === "failed" ? outcome.error.message : "", /Task not found/);
  await sleep(1200); // time for a poll it might still send
  const checks = await checksOf(sessionId, posts());
  const c = checks["task-polling-bounded"];
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c!.message, /the client stopped polling it; it did not call long_job again \(the journal cannot tell whether it reported the loss\)/);
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
});
