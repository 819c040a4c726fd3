import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { Check } from "../../src/checks/index.ts";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";

// Scripted task clients over loopback against the `conformance` session, each breaking one SEP-2663 client rule,
// and the task checks GET /api/sessions/{id}/checks gives each (the ext-tasks client, which keeps them all, is in
// ext-tasks-client.test.ts). Each client polls slow_compute, whose answers ask pollIntervalMs 500.

type Json = Record<string, any>;
const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const server = useServer();

/** A scripted client of one fresh session: it counts its requests, so the test can wait for the journal to hold them. */
async function scripted() {
  const session = await createSession(server, "conformance");
  let id = 1;
  const send = async (method: string, params: Json, headers: Record<string, string> = {}): Promise<Json> => {
    const res = await postModern(session.mcpUrl, id++, method, params, { capabilities: EXT, headers });
    return (await res.json()) as Json;
  };
  const named = (taskId: string) => ({ "mcp-name": taskId });
  return {
    start: async (seconds: number): Promise<string> => (await send("tools/call", { name: "slow_compute", arguments: { seconds } })).result.taskId,
    get: async (taskId: string, headers = named(taskId)) => (await send("tasks/get", { taskId }, headers)).result as Json | undefined,
    cancel: (taskId: string) => send("tasks/cancel", { taskId }, named(taskId)),
    greet: () => send("tools/call", { name: "greet", arguments: { name: "again" } }, { "mcp-name": "greet" }),
    checks: async (): Promise<Record<string, Check>> => {
      await journalOf(server.url, session.id, id - 1);
      const { checks } = (await (await fetch(`${server.url}/api/sessions/${session.id}/checks`)).json()) as { checks: Check[] };
      return Object.fromEntries(checks.filter((c) => c.id.startsWith("task-")).map((c) => [c.id, c]));
    },
  };
}

test("a 10 ms poller fails task-poll-interval-honoured, and still passes the checks it keeps", async () => {
  const client = await scripted();
  const taskId = await client.start(1);
  for (let i = 0; i < 200 && (await client.get(taskId))?.status !== "completed"; i++) await sleep(10);
  const checks = await client.checks();
  assert.equal(checks["task-poll-interval-honoured"]?.status, "fail", checks["task-poll-interval-honoured"]?.message);
  assert.match(checks["task-poll-interval-honoured"]!.message, /which asked for pollIntervalMs 500/);
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
});

test("a client that sends tasks/get without Mcp-Name fails task-mcp-name-sent (and the server refuses the poll)", async () => {
  const client = await scripted();
  const taskId = await client.start(0);
  await sleep(600);
  assert.equal(await client.get(taskId, {} as { "mcp-name": string }), undefined, "the server answers -32020, not the task");
  const checks = await client.checks();
  assert.equal(checks["task-mcp-name-sent"]?.status, "fail", checks["task-mcp-name-sent"]?.message);
  assert.match(checks["task-mcp-name-sent"]!.message, /1 of 1 tasks\/\* requests .* sent no Mcp-Name header/);
});

test("a client that polls on after completion fails task-polled-to-terminal", async () => {
  const client = await scripted();
  const taskId = await client.start(0);
  for (let i = 0; i < 3; i++) {
    await sleep(600);
    assert.equal((await client.get(taskId))?.status, "completed");
  }
  const checks = await client.checks();
  assert.equal(checks["task-polled-to-terminal"]?.status, "fail", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, /2 more times after it was completed/);
  assert.equal(checks["task-poll-interval-honoured"]?.status, "pass");
});

test("a client that keeps polling after its own tasks/cancel gets a warning from task-not-polled-after-cancel", async () => {
  const client = await scripted();
  const taskId = await client.start(60);
  await client.cancel(taskId);
  for (let i = 0; i < 2; i++) {
    await sleep(600);
    await client.get(taskId);
  }
  const checks = await client.checks();
  assert.equal(checks["task-not-polled-after-cancel"]?.status, "warning", checks["task-not-polled-after-cancel"]?.message);
  assert.equal(checks["task-polled-to-terminal"], undefined, "a cancelled task is judged by the cancel check alone");
});

test("a client that polls an unknown task id on and on fails task-polling-bounded; one that stops passes", async () => {
  const forever = await scripted();
  for (let i = 0; i < 5; i++) assert.equal(await forever.get("lost-task-id"), undefined);
  const failing = await forever.checks();
  assert.equal(failing["task-polling-bounded"]?.status, "fail", failing["task-polling-bounded"]?.message);
  assert.match(failing["task-polling-bounded"]!.message, /Task not found".* polled it 4 more times \(more than 3\)/);
  const stops = await scripted();
  await stops.get("lost-task-id");
  assert.equal((await stops.checks())["task-polling-bounded"]?.status, "pass");
});

test("a client that never polls its task and goes on with other calls fails task-polled-to-terminal", async () => {
  const client = await scripted();
  await client.start(60);
  await sleep(1200); // more than twice the pollIntervalMs of 500, without a tasks/get
  await client.greet();
  const checks = await client.checks();
  assert.equal(checks["task-polled-to-terminal"]?.status, "fail", checks["task-polled-to-terminal"]?.message);
  assert.match(checks["task-polled-to-terminal"]!.message, /left task .* of slow_compute \(seq 1\) while it was working \(read at seq 1\): it went on \(seq 2\) without polling it again or cancelling it/);
  assert.equal(checks["task-poll-interval-honoured"], undefined, "no poll to time");
  assert.equal(checks["task-mcp-name-sent"], undefined, "no tasks/* request at all");
});
