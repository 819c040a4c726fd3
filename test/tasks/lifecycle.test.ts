import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { useServer } from "../helpers/server.ts";
import { checksById, extTasksSession, scriptedSession } from "../helpers/tasks.ts";

// tasks.lifecycle over loopback, one variant per test: scripted pollers that keep or break a rule, and the
// ext-tasks client (0.2.2), with the task checks each gets.

type Json = Record<string, any>;
const TERMINAL = ["completed", "failed", "cancelled"];
const server = useServer();

const checksOf = (sessionId: string, entries: number) => checksById(server, sessionId, entries, "task-");

interface Poller {
  /** The wait before the next poll, from the pollIntervalMs the last answer asked. */
  wait(askedMs: number): number;
  /** Polls after the terminal status or the first refusal (0: stop there). */
  pollsOn?: number;
  maxPolls?: number;
}

/** A scripted client of `job` on a tasks.lifecycle session of `params`; returns what it read and the checks. */
async function scripted(params: Json, poller: Poller) {
  const session = await scriptedSession(server, "tasks.lifecycle", params);
  const post = session.postJson;
  const created = (await post("tools/call", { name: "job", arguments: {} }, "job")).result as Json;
  assert.equal(created.resultType, "task");
  const seen: Json[] = [];
  let asked = created.pollIntervalMs as number;
  let left = poller.pollsOn ?? 0;
  for (let i = 0; i < (poller.maxPolls ?? 20); i++) {
    await sleep(poller.wait(asked));
    const body = await post("tasks/get", { taskId: created.taskId }, created.taskId);
    seen.push(body.result ?? body.error);
    const ended = body.error !== undefined || TERMINAL.includes(body.result.status);
    if (body.result) asked = body.result.pollIntervalMs;
    if (ended && left-- <= 0) break;
  }
  return { seen, checks: await checksOf(session.sessionId, session.sent()) };
}

/** The ext-tasks client on a tasks.lifecycle session of `params`, with the number of POSTs it made so far. */
const extTasks = (t: TestContext, params: Json) => extTasksSession(t, server, "tasks.lifecycle", { params });

const CHANGES = { variant: "interval_changes", intervals: [500, 2000, 250], seconds: 3 };

test("interval_changes: a poller that keeps the first pollIntervalMs polls too soon once the server asks 2000 and fails task-poll-interval-honoured", async () => {
  const { seen, checks } = await scripted(CHANGES, { wait: () => 520 });
  assert.deepEqual(seen.slice(0, 3).map((x) => x.pollIntervalMs), [2000, 250, 500], "the answers asked a changing interval");
  const c = checks["task-poll-interval-honoured"];
  assert.equal(c?.status, "fail", c?.message);
  assert.match(c!.message, /which asked for pollIntervalMs 2000/);
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
});

test("interval_changes: a poller that waits the pollIntervalMs of the last answer passes, and so does the ext-tasks client", async (t) => {
  const { checks } = await scripted(CHANGES, { wait: (asked) => asked + 20 });
  assert.equal(checks["task-poll-interval-honoured"]?.status, "pass", checks["task-poll-interval-honoured"]?.message);
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
  const ext = await extTasks(t, CHANGES);
  const { outcome } = await (await ext.tasks.callTool("job", {})).settle();
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  const extChecks = await checksOf(ext.sessionId, ext.posts());
  assert.equal(extChecks["task-poll-interval-honoured"]?.status, "pass", extChecks["task-poll-interval-honoured"]?.message);
  assert.match(extChecks["task-poll-interval-honoured"]!.message, /polled task .* of job \(seq \d+\) [3-9] times/);
  assert.equal(extChecks["task-polled-to-terminal"]?.status, "pass");
});

test("failed: the ext-tasks client settles as failed with the task's JSON-RPC error and stops; a poller that goes on fails task-polled-to-terminal", async (t) => {
  const params = { variant: "failed", seconds: 1 };
  const ext = await extTasks(t, params);
  const { outcome } = await (await ext.tasks.callTool("job", {})).settle();
  assert.equal(outcome.status, "failed");
  assert.match(outcome.status === "failed" ? outcome.error.message : "", /the job crashed/);
  const extChecks = await checksOf(ext.sessionId, ext.posts());
  assert.equal(extChecks["task-polled-to-terminal"]?.status, "pass", extChecks["task-polled-to-terminal"]?.message);
  assert.match(extChecks["task-polled-to-terminal"]!.message, /until it was failed/);
  const { checks } = await scripted(params, { wait: (asked) => asked + 20, pollsOn: 2 });
  assert.equal(checks["task-polled-to-terminal"]?.status, "fail", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, /2 more times after it was failed/);
});

test("cancelled by the server: the ext-tasks client settles as cancelled and stops polling, passing task-polled-to-terminal", async (t) => {
  const ext = await extTasks(t, { variant: "cancelled", seconds: 1 });
  const { outcome } = await (await ext.tasks.callTool("job", {})).settle();
  assert.equal(outcome.status, "cancelled", JSON.stringify(outcome));
  await sleep(700); // time for a poll it might still send
  const checks = await checksOf(ext.sessionId, ext.posts());
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, /until it was cancelled \(seq \d+\) and then stopped/);
  assert.equal(checks["task-not-polled-after-cancel"], undefined, "the client sent no tasks/cancel");
});

test("expires: a poller that waits as asked finds the task expired; stopping there passes task-polling-bounded, polling on fails it", async () => {
  const params = { variant: "expires", ttlMs: 1000 };
  const stops = await scripted(params, { wait: (asked) => asked });
  assert.equal(stops.seen[0]?.code, -32602, JSON.stringify(stops.seen[0]));
  assert.match(String(stops.seen[0]?.message), /expired/);
  assert.equal(stops.checks["task-polling-bounded"]?.status, "pass", stops.checks["task-polling-bounded"]?.message);
  assert.match(stops.checks["task-polling-bounded"]!.message, /"Failed to retrieve task: Task has expired" at seq 2 .* the client stopped polling it; it did not call job again/);
  let polls = 0;
  const forever = await scripted(params, { wait: (asked) => (polls++ === 0 ? asked : 200), pollsOn: 5 });
  assert.deepEqual(forever.seen.map((x) => x.code), Array(6).fill(-32602));
  const c = forever.checks["task-polling-bounded"];
  assert.equal(c?.status, "fail", c?.message);
  assert.match(c!.message, /polled it 5 more times \(more than 3\)/);
});

test("overdue: the ext-tasks client polls a task working past its ttlMs without giving up (no TTL backstop); its cancel ends the polling", async (t) => {
  const ext = await extTasks(t, { variant: "overdue", ttlMs: 1000 });
  const execution = await ext.tasks.callTool("job", {});
  assert.equal(execution.kind, "task");
  await sleep(2600); // well past createdAt + ttlMs
  const before = ext.posts();
  assert.ok(before >= 5, `it kept polling past the ttlMs (${before} POSTs)`);
  await execution.cancel();
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "cancelled");
  await sleep(700);
  const checks = await checksOf(ext.sessionId, ext.posts());
  assert.equal(checks["task-poll-interval-honoured"]?.status, "pass", checks["task-poll-interval-honoured"]?.message);
  assert.equal(checks["task-not-polled-after-cancel"]?.status, "pass", checks["task-not-polled-after-cancel"]?.message);
  assert.equal(checks["task-polled-to-terminal"], undefined, "a cancelled task is judged by the cancel check");
});
