import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { DispatchError } from "@modelcontextprotocol/ext-tasks/client";
import { useServer } from "../helpers/server.ts";
import { checksById, extTasksSession, scriptedSession } from "../helpers/tasks.ts";

// tasks.poll_rate_limited over loopback: every second tasks/get of each task is answered 429 with Retry-After: 1.
// A scripted client that waits as asked and one that does not, then the ext-tasks client (0.2.2) with the two ways
// a host can hand it the 429, and the checks each gets.

type Json = Record<string, any>;
const server = useServer();

const checksOf = (sessionId: string, entries: number) => checksById(server, sessionId, entries);

/** A scripted poller of long_job: after a 429 it waits `afterRefusalMs(retryAfterMs)`, else the pollIntervalMs asked. */
async function poller(afterRefusalMs: (retryAfterMs: number) => number) {
  const session = await scriptedSession(server, "tasks.poll_rate_limited");
  const post = session.post;
  const created = ((await (await post("tools/call", { name: "long_job", arguments: { seconds: 1 } }, "long_job")).json()) as Json).result;
  assert.equal(created.resultType, "task");
  let wait = created.pollIntervalMs as number;
  for (let i = 0; i < 20; i++) {
    await sleep(wait);
    const res = await post("tasks/get", { taskId: created.taskId }, created.taskId);
    const body = (await res.json()) as Json;
    if (res.status === 429) {
      wait = afterRefusalMs(Number(res.headers.get("retry-after")) * 1000);
      continue;
    }
    if (body.result.status === "completed") break;
    wait = body.result.pollIntervalMs;
  }
  return checksOf(session.sessionId, session.sent());
}

test("a task client that waits the Retry-After of a refused poll passes http-retry-after-honoured and polls the task to completion", async () => {
  const checks = await poller((retryAfterMs) => retryAfterMs);
  assert.equal(checks["http-retry-after-honoured"]?.status, "pass", checks["http-retry-after-honoured"]?.message);
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass", checks["task-polled-to-terminal"]?.message);
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
  // One poll at a time, before the 429 and after it: the refusal made it send no more at once.
  assert.equal(checks["inflight-not-amplified"]?.status, "pass", checks["inflight-not-amplified"]?.message);
  assert.match(checks["inflight-not-amplified"]!.message, /After the first 429 \(seq \d+, to tasks\/get\) the client had at most 1 request in flight at once, no more than the 1 before it/);
});

test("a task client that polls again 10 ms after a 429 fails http-retry-after-honoured", async () => {
  const checks = await poller(() => 10);
  assert.equal(checks["http-retry-after-honoured"]?.status, "fail", checks["http-retry-after-honoured"]?.message);
  assert.match(checks["http-retry-after-honoured"]!.message, /after a 429 to tasks\/get that asked for Retry-After: 1 s/);
});

/** The ext-tasks client on a tasks.poll_rate_limited session; its host either hands the 429's JSON-RPC error on or throws a retryable DispatchError. */
async function extTasks(t: TestContext, on429: "error" | "retryable") {
  const { tasks, sessionId, posts } = await extTasksSession(t, server, "tasks.poll_rate_limited", {
    onResponse: (res) => {
      if (res.status === 429 && on429 === "retryable") throw new DispatchError(`HTTP 429, Retry-After ${res.headers.get("retry-after")}`, true);
    },
  });
  const execution = await tasks.callTool("long_job", { seconds: 2 });
  const { outcome } = await execution.settle();
  return { outcome, checks: await checksOf(sessionId, posts()) };
}

test("ext-tasks 0.2.2 given the 429 as a JSON-RPC error fails the task on the first refused poll, though the task still works", async (t) => {
  const { outcome, checks } = await extTasks(t, "error");
  assert.equal(outcome.status, "failed");
  assert.match(outcome.status === "failed" ? outcome.error.message : "", /Injected HTTP 429/);
  assert.equal(checks["http-retry-after-honoured"]?.status, "info", "no retry of the refused poll");
  assert.equal(checks["task-polled-to-terminal"]?.status, "info", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, /was working \(read at seq \d+\)/);
});

test("ext-tasks 0.2.2 given the 429 as a retryable dispatch error retries the poll at once, not after Retry-After, and completes", async (t) => {
  const { outcome, checks } = await extTasks(t, "retryable");
  assert.equal(outcome.status, "completed");
  assert.equal(checks["http-retry-after-honoured"]?.status, "fail", checks["http-retry-after-honoured"]?.message);
  assert.equal(checks["task-poll-interval-honoured"]?.status, "pass");
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
});
