import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqlOn } from "../helpers/node-sql.ts";
import { MAX_TASKS, SqlTaskStore, TASKS_SCHEMA } from "../../src/session/task-store.ts";
import { newTask } from "../../src/mcp/tasks/lifecycle.ts";
import { isTaskTool } from "../../src/mcp/tasks/tool.ts";
import { TASK_HANDLERS as HANDLERS, type TaskContext } from "../../src/mcp/tasks/handlers.ts";
import { RpcError } from "../../src/wire/jsonrpc.ts";
import { TASK_TOOLS } from "../../scenarios/conformance/task-tools.ts";
import inputRounds from "../../scenarios/tasks/input-rounds.ts";
import taskLifecycle from "../../scenarios/tasks/lifecycle.ts";
import { createTaskResult } from "../../src/mcp/tasks/lifecycle.ts";

const TASK_HANDLERS = HANDLERS as Required<Pick<typeof HANDLERS, "tasks/get" | "tasks/update" | "tasks/cancel">>;

// The task store on node:sqlite (the Durable Object's SQL stood in for) and the tasks methods with a clock the test sets.

function open(path = ":memory:") {
  const db = new DatabaseSync(path);
  const sql = sqlOn(db) as unknown as ConstructorParameters<typeof SqlTaskStore>[0];
  sql.exec(TASKS_SCHEMA);
  return { db, sql };
}

test("a stored task is read back the same from a reopened database, as after a restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-tasks-"));
  try {
    const first = open(join(dir, "s.sqlite"));
    const row = newTask("slow_compute", { seconds: 1 }, { workMs: 1000 }, 1_000);
    new SqlTaskStore(first.sql, () => 1_000).create(row);
    first.db.close();
    const second = open(join(dir, "s.sqlite"));
    assert.deepEqual(new SqlTaskStore(second.sql, () => 2_000).get(row.id), row);
    second.db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("creating a task past the bound drops the oldest, and expired tasks go when the next one is created", () => {
  const { sql } = open();
  let now = 0;
  const store = new SqlTaskStore(sql, () => now);
  const ids: string[] = [];
  const id = (i: number) => ids[i] ?? "missing";
  for (let i = 0; i < MAX_TASKS + 3; i++) {
    now = i;
    const row = newTask("slow_compute", {}, { workMs: 0 }, now);
    ids.push(row.id);
    store.create(row);
  }
  const count = () => Number((sql.exec("SELECT COUNT(*) AS c FROM tasks").toArray()[0] as { c: number }).c);
  assert.equal(count(), MAX_TASKS);
  assert.equal(store.get(id(0)), undefined);
  assert.equal(store.get(id(2)), undefined);
  assert.ok(store.get(id(3)));
  now = 10 * 60_000 + MAX_TASKS + 10; // past every ttlMs (DEFAULT_TTL_MS)
  store.create(newTask("slow_compute", {}, { workMs: 0 }, now));
  assert.equal(count(), 1);
});

function context(store: SqlTaskStore, clock: { now: number }, tools: TaskContext["tools"] = TASK_TOOLS): TaskContext {
  return {
    era: "modern",
    protocolVersion: "2026-07-28",
    headers: {},
    scenarioId: "conformance",
    clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
    tools,
    taskStore: store,
    now: () => clock.now,
    elicit: () => Promise.reject(new Error("not asked here")),
    sample: () => Promise.reject(new Error("not asked here")),
    listRoots: () => Promise.reject(new Error("not asked here")),
    log: () => {},
    progress: () => {},
    listChanged: () => {},
    count: () => 0,
    counted: () => 0,
    notify: () => {},
  };
}

test("a task past its ttlMs gets -32602 'Task has expired' on tasks/get, and is then gone", async () => {
  const { sql } = open();
  const clock = { now: 1_000 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const row = newTask("slow_compute", { seconds: 0, label: "x" }, { workMs: 0 }, clock.now);
  store.create(row);
  clock.now += row.ttlMs - 1;
  assert.equal((await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, context(store, clock))).status, "completed", "still there one ms before the TTL");
  clock.now += 1;
  await assert.rejects(TASK_HANDLERS["tasks/get"]({ taskId: row.id }, context(store, clock)), (e: unknown) => e instanceof RpcError && e.code === -32602 && /expired/.test(e.message));
  assert.equal(store.get(row.id), undefined);
});

test("a working task stays working until its deadline and completes on the first poll after it", async () => {
  const { sql } = open();
  const clock = { now: 5_000 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const row = newTask("slow_compute", { seconds: 2, label: "deadline" }, { workMs: 2000 }, clock.now);
  store.create(row);
  clock.now += 1999;
  assert.equal((await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, context(store, clock))).status, "working");
  clock.now += 1;
  const done = await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, context(store, clock));
  assert.equal(done.status, "completed");
  assert.equal(done.lastUpdatedAt, new Date(clock.now).toISOString());
});

test("an answered key is not asked again: a second answer to it is ignored once the task resumed", async () => {
  const { sql } = open();
  const clock = { now: 0 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const row = newTask("confirm_delete", { filename: "f" }, { workMs: 0, asks: { confirm: { method: "elicitation/create", params: {} } } }, 0);
  store.create(row);
  const ctx = context(store, clock);
  assert.equal((await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx)).status, "input_required");
  await TASK_HANDLERS["tasks/update"]({ taskId: row.id, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } }, ctx);
  await TASK_HANDLERS["tasks/update"]({ taskId: row.id, inputResponses: { confirm: { action: "decline" } } }, ctx);
  const done = await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx);
  assert.match(JSON.stringify(done.result), /f: true/);
});

test("a task of rounds asks one round at a time, and the poll after each answer still shows the key just answered (staleReads)", async () => {
  const { sql } = open();
  const clock = { now: 0 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const tools = inputRounds.tools!(inputRounds.params.parse({ rounds: 2, staleReads: 1, roundMs: 100 }));
  const ctx = context(store, clock, tools);
  const survey = tools[0];
  assert.ok(isTaskTool(survey), "survey is a task tool");
  const row = newTask("survey", { topic: "t" }, await survey.task.start({ topic: "t" }, ctx), 0);
  store.create(row);
  const get = () => TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx);
  const update = (key: string, answer: string) => TASK_HANDLERS["tasks/update"]({ taskId: row.id, inputResponses: { [key]: { action: "accept", content: { answer } } } }, ctx);
  const keys = (task: Record<string, unknown>) => Object.keys((task.inputRequests as Record<string, unknown> | undefined) ?? {});
  assert.equal((await get()).status, "working", "working until the first round's deadline");
  clock.now = 100;
  const first = await get();
  assert.deepEqual([first.status, keys(first)], ["input_required", ["question_1"]], "one round at a time");
  await update("question_1", "a");
  clock.now = 150;
  const stale = await get();
  assert.deepEqual([stale.status, keys(stale)], ["input_required", ["question_1"]], "the read after the ack still shows the answered key");
  assert.deepEqual((stale.inputRequests as Record<string, unknown>).question_1, (first.inputRequests as Record<string, unknown>).question_1, "the same request under the same key");
  assert.equal((await get()).status, "working", "one stale read, then the state as it is: working until the next round");
  await update("question_1", "again");
  clock.now = 200;
  const second = await get();
  assert.deepEqual([second.status, keys(second)], ["input_required", ["question_2"]]);
  await update("question_2", "b");
  const staleTwo = await get();
  assert.deepEqual([staleTwo.status, keys(staleTwo)], ["input_required", ["question_2"]]);
  const done = await get();
  assert.equal(done.status, "completed");
  assert.match(JSON.stringify(done.result), /question_1: a; question_2: b/, "the second answer to question_1 was ignored");
});

test("without rounds every key is asked at once, and without staleReads the poll after the ack shows the task moved on", async () => {
  const { sql } = open();
  const clock = { now: 0 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const ctx = context(store, clock);
  const asks = { a: { method: "elicitation/create", params: {} }, b: { method: "elicitation/create", params: {} } };
  const row = newTask("multi_input", {}, { workMs: 0, asks }, 0);
  store.create(row);
  const first = await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx);
  assert.deepEqual(Object.keys(first.inputRequests as object), ["a", "b"]);
  await TASK_HANDLERS["tasks/update"]({ taskId: row.id, inputResponses: { a: {}, b: {} } }, ctx);
  assert.equal((await TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx)).status, "completed");
});

/** A tasks.lifecycle task of `params` on a fresh store, with the clock at 0, and tasks/get of it. */
async function lifecycleTask(params: Record<string, unknown>) {
  const { sql } = open();
  const clock = { now: 0 };
  const store = new SqlTaskStore(sql, () => clock.now);
  const tools = taskLifecycle.tools!(taskLifecycle.params.parse(params));
  const ctx = context(store, clock, tools);
  const job = tools[0];
  assert.ok(isTaskTool(job));
  const row = newTask("job", {}, await job.task.start({}, ctx), 0);
  store.create(row);
  return { clock, row, created: createTaskResult(row), get: () => TASK_HANDLERS["tasks/get"]({ taskId: row.id }, ctx) };
}

test("tasks.lifecycle interval_changes: the creation asks the first pollIntervalMs and each tasks/get the next, in a cycle", async () => {
  const { clock, created, get } = await lifecycleTask({ variant: "interval_changes", intervals: [500, 2000, 250], seconds: 10 });
  const asked = [created.pollIntervalMs];
  for (let i = 0; i < 4; i++) {
    clock.now += 100;
    asked.push((await get()).pollIntervalMs);
  }
  assert.deepEqual(asked, [500, 2000, 250, 500, 2000]);
});

test("tasks.lifecycle overdue: the task is still working after its ttlMs, not expired", async () => {
  const { clock, created, get } = await lifecycleTask({ variant: "overdue", ttlMs: 1000 });
  assert.equal(created.ttlMs, 1000);
  clock.now = 5000;
  const task = await get();
  assert.equal(task.status, "working");
});

test("tasks.lifecycle failed and cancelled end at their deadline: failed with a JSON-RPC error, cancelled by the server", async () => {
  const failed = await lifecycleTask({ variant: "failed", seconds: 1 });
  failed.clock.now = 999;
  assert.equal((await failed.get()).status, "working");
  failed.clock.now = 1000;
  const f = await failed.get();
  assert.equal(f.status, "failed");
  assert.equal((f.error as { code: number }).code, -32603);
  const cancelled = await lifecycleTask({ variant: "cancelled", seconds: 1 });
  cancelled.clock.now = 1000;
  const c = await cancelled.get();
  assert.equal(c.status, "cancelled");
  assert.match(String(c.statusMessage), /Cancelled by the server/);
});

test("tasks.lifecycle expires: done at once but gone at its ttlMs, sooner than the pollIntervalMs it asks", async () => {
  const { clock, created, get } = await lifecycleTask({ variant: "expires", ttlMs: 1000 });
  assert.equal(created.pollIntervalMs, 1500);
  clock.now = 300;
  assert.equal((await get()).status, "completed", "fetched early, the result is there");
  clock.now = 1500; // when a client polling as asked comes
  await assert.rejects(get(), (e: unknown) => e instanceof RpcError && e.code === -32602 && /expired/.test(e.message));
});
