import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, checksOf, runChecks } from "../../src/checks/index.ts";
import { slimEntry } from "../../src/journal/slim.ts";
import { LOST_TASK_POLL_BOUND } from "../../src/checks/tasks.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput } from "./entries.ts";

// The task client's checks (src/checks/tasks.ts) on hand-built 2026-07-28 journals: every status of each.

const ID = "5fe57cf8-b9b9-4f45-ba73-6459120175cc";
const TASK = { taskId: ID, createdAt: "2026-08-01T10:00:00.000Z", lastUpdatedAt: "2026-08-01T10:00:00.000Z", ttlMs: 600_000, pollIntervalMs: 500 };

function only(entries: JournalEntry[], id: string): Check {
  const found = checksOf(entries).filter((c) => c.id === id);
  assert.equal(found.length, 1, `expected one ${id} check, got ${JSON.stringify(checksOf(entries), null, 1)}`);
  return found[0]!;
}

/** The tools/call answered with a CreateTaskResult (working, pollIntervalMs 500 unless told). */
const created = (seq: number, at: number, task: Record<string, unknown> = {}) =>
  call(seq, at, "slow_compute", { seconds: 2 }, { result: { resultType: "task", ...TASK, status: "working", ...task } });

/** A tasks/* request for the task, with Mcp-Name: the taskId unless `headers` say otherwise. */
function taskRequest(seq: number, at: number, method: string, result: Record<string, unknown>, rest: Partial<EntryInput> = {}): JournalEntry {
  return entry({ seq, at, method, params: { taskId: ID }, headers: { "mcp-method": method, "mcp-name": ID }, result, ...rest });
}
const get = (seq: number, at: number, status: string, rest: Partial<EntryInput> = {}) =>
  taskRequest(seq, at, "tasks/get", { resultType: "complete", ...TASK, status, ...(status === "completed" ? { result: { resultType: "complete", content: [] } } : {}) }, rest);
const cancel = (seq: number, at: number) => taskRequest(seq, at, "tasks/cancel", { resultType: "complete" });
const update = (seq: number, at: number) => taskRequest(seq, at, "tasks/update", { resultType: "complete" });

/** The client's polls of one task 600 ms apart (each answer ends 5 ms after its request), the last one completed. */
const wellPolled = () => [created(1, 0), get(2, 600, "working"), get(3, 1200, "working"), get(4, 1800, "completed")];

// ---- task-poll-interval-honoured ----

test("task-poll-interval-honoured passes when each tasks/get waited the pollIntervalMs of the answer before it", () => {
  const c = only(wellPolled(), "task-poll-interval-honoured");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /polled task 5fe57cf8… of slow_compute \(seq 1\) 3 times, each waiting at least the pollIntervalMs .* \(the shortest wait: 595 ms of 500\)/);
});

test("task-poll-interval-honoured fails on a 10 ms poller, naming the gap, the interval asked and how many came too soon", () => {
  const entries = [created(1, 0), get(2, 15, "working"), get(3, 30, "working"), get(4, 600, "completed")];
  const c = only(entries, "task-poll-interval-honoured");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /polled task 5fe57cf8… .* 10 ms after the answer at seq 1, which asked for pollIntervalMs 500 \(seq 2; 2 of 3 polls came too soon\)/);
  assert.deepEqual(c.evidence, [1, 2, 3]);
});

test("task-poll-interval-honoured allows a small slack, and reads a pollIntervalMs that changed from the latest answer", () => {
  // 460 ms after an answer asking 500 is within the 50 ms slack; then the server asks 2000 and the next poll waits 2000.
  const entries = [created(1, 0), get(2, 465, "working", { result: { resultType: "complete", ...TASK, status: "working", pollIntervalMs: 2000 } }), get(3, 2470, "completed")];
  assert.equal(only(entries, "task-poll-interval-honoured").status, "pass");
  const early = [created(1, 0), get(2, 465, "working", { result: { resultType: "complete", ...TASK, status: "working", pollIntervalMs: 2000 } }), get(3, 1000, "completed")];
  const c = only(early, "task-poll-interval-honoured");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /530 ms after the answer at seq 2, which asked for pollIntervalMs 2000/);
});

test("task-poll-interval-honoured does not time the first tasks/get after a tasks/update, and gives no check without polls", () => {
  const entries = [created(1, 0), get(2, 600, "input_required"), update(3, 700), get(4, 710, "completed")];
  const c = only(entries, "task-poll-interval-honoured");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /polled task 5fe57cf8… of slow_compute \(seq 1\) once, waiting at least/);
  assert.deepEqual(checksOf([created(1, 0)]).filter((x) => x.id === "task-poll-interval-honoured"), []);
});

// ---- task-polled-to-terminal ----

test("task-polled-to-terminal passes when the client polled until completed and stopped", () => {
  const c = only(wellPolled(), "task-polled-to-terminal");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /until it was completed \(seq 4\) and then stopped/);
});

test("task-polled-to-terminal passes for failed too, and allows one more look after the terminal status", () => {
  const entries = [created(1, 0), get(2, 600, "failed", { result: { resultType: "complete", ...TASK, status: "failed", error: { code: -32603, message: "x" } } }), get(3, 1200, "failed")];
  assert.equal(only(entries, "task-polled-to-terminal").status, "pass");
});

test("task-polled-to-terminal fails on a client that polls on after completion", () => {
  const entries = [...wellPolled(), get(5, 2400, "completed"), get(6, 3000, "completed")];
  const c = only(entries, "task-polled-to-terminal");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /polled task 5fe57cf8… .* 2 more times after it was completed \(seq 4\)/);
  assert.deepEqual(c.evidence, [4, 5, 6]);
});

test("task-polled-to-terminal fails when the client left a working task for other requests without polling or cancelling", () => {
  const entries = [created(1, 0), get(2, 600, "working"), call(3, 2000, "echo", { text: "hi" })];
  const c = only(entries, "task-polled-to-terminal");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /left task 5fe57cf8… .* while it was working \(read at seq 2\): it went on \(seq 3\)/);
});

test("task-polled-to-terminal is info when the journal just ends while the task works", () => {
  const entries = [created(1, 0), get(2, 600, "working"), call(3, 700, "echo", { text: "hi" })];
  const c = only(entries, "task-polled-to-terminal");
  assert.equal(c.status, "info", c.message);
  assert.match(c.message, /The journal ends while task 5fe57cf8… .* was working \(read at seq 2\), its last poll at seq 2/);
});

// ---- task-not-polled-after-cancel ----

test("task-not-polled-after-cancel passes when the client stopped polling at its tasks/cancel, and with one more look", () => {
  const stopped = only([created(1, 0), get(2, 600, "working"), cancel(3, 700)], "task-not-polled-after-cancel");
  assert.equal(stopped.status, "pass", stopped.message);
  assert.match(stopped.message, /stopped polling task 5fe57cf8… .* at its tasks\/cancel \(seq 3\)/);
  const looked = only([created(1, 0), cancel(2, 100), get(3, 700, "cancelled")], "task-not-polled-after-cancel");
  assert.equal(looked.status, "pass", looked.message);
  assert.match(looked.message, /looked once more \(seq 3\)/);
});

test("task-not-polled-after-cancel warns on a client that keeps polling after its cancel", () => {
  const entries = [created(1, 0), cancel(2, 100), get(3, 700, "working"), get(4, 1300, "working")];
  const c = only(entries, "task-not-polled-after-cancel");
  assert.equal(c.status, "warning", c.message);
  assert.match(c.message, /polled it 2 more times: SEP-2663 ends polling at the cancel/);
});

test("task-not-polled-after-cancel fails on polls on after the cancelled status, and task-polled-to-terminal leaves a cancelled task to it", () => {
  const entries = [created(1, 0), cancel(2, 100), get(3, 700, "cancelled"), get(4, 1300, "cancelled"), get(5, 1900, "cancelled")];
  const c = only(entries, "task-not-polled-after-cancel");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /polled it 2 more times after it was cancelled \(seq 3\)/);
  assert.deepEqual(checksOf(entries).filter((x) => x.id === "task-polled-to-terminal"), []);
});

// ---- task-mcp-name-sent ----

test("task-mcp-name-sent passes when every tasks/* request carried Mcp-Name: the taskId", () => {
  const c = only([...wellPolled(), cancel(5, 2400)], "task-mcp-name-sent");
  assert.equal(c.status, "pass", c.message);
  assert.equal(c.message, "All 4 tasks/* requests carried Mcp-Name equal to params.taskId.");
});

test("task-mcp-name-sent fails on a tasks/get without Mcp-Name, and on one naming another task", () => {
  const missing = get(3, 1200, "working", { headers: { "mcp-method": "tasks/get" } });
  const c = only([created(1, 0), get(2, 600, "working"), missing], "task-mcp-name-sent");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /1 of 2 tasks\/\* requests did not carry Mcp-Name equal to params.taskId \(seq 3, tasks\/get, sent no Mcp-Name header\)/);
  const other = get(2, 600, "working", { headers: { "mcp-method": "tasks/get", "mcp-name": "someone-else" } });
  assert.match(only([created(1, 0), other], "task-mcp-name-sent").message, /sent Mcp-Name: someone-else/);
});

test("task-mcp-name-sent judges the store's slim projection as it judges the full entries: the projection keeps Mcp-Name", async () => {
  const checks = await runChecks([...wellPolled(), cancel(5, 2400)].map((e) => slimEntry(e, undefined)));
  assert.equal(checks.find((c) => c.id === "task-mcp-name-sent")?.status, "pass");
});

test("task-mcp-name-sent reads a base64-encoded Mcp-Name as its value", () => {
  const encoded = `=?base64?${Buffer.from(ID).toString("base64")}?=`;
  const c = only([created(1, 0), get(2, 600, "completed", { headers: { "mcp-method": "tasks/get", "mcp-name": encoded } })], "task-mcp-name-sent");
  assert.equal(c.status, "pass", c.message);
});

// ---- task-polling-bounded ----

const unknown = (seq: number, at: number) => get(seq, at, "", { result: undefined, status: 400, error: { code: -32602, message: "Task not found" } });

test("task-polling-bounded passes when the client stopped polling a task the server answered -32602 for", () => {
  const c = only([unknown(1, 0), unknown(2, 600)], "task-polling-bounded");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /After the -32602 "Task not found" at seq 1 to tasks\/get of task 5fe57cf8…, the client polled it 1 more time, within 3, then stopped/);
});

test("task-polling-bounded fails on a client that polls a lost task forever", () => {
  const entries = [unknown(1, 0), ...Array.from({ length: LOST_TASK_POLL_BOUND + 1 }, (_, i) => unknown(i + 2, 600 * (i + 1)))];
  const c = only(entries, "task-polling-bounded");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /polled it 4 more times \(more than 3\): a task the server no longer knows is polled forever/);
});

test("task-polling-bounded names a re-creation: the task's tool called again after the -32602, and leaves the lost task out of task-polled-to-terminal", () => {
  const NEW = "9a8b7c6d-0000-4000-8000-000000000001";
  const entries = [created(1, 0), get(2, 600, "working"), unknown(3, 1200), created(4, 1300, { taskId: NEW }), call(5, 4000, "echo", { text: "later" })];
  const c = only(entries, "task-polling-bounded");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /at seq 3 to tasks\/get of task 5fe57cf8… of slow_compute \(seq 1\), the client stopped polling it, and re-created it: tools\/call slow_compute again at seq 4, answered with task 9a8b7c6d…/);
  assert.deepEqual(c.evidence, [3, 4]);
  const terminal = checksOf(entries).filter((x) => x.id === "task-polled-to-terminal");
  assert.equal(terminal.length, 1, "only the new task is judged there");
  assert.match(terminal[0]!.message, /9a8b7c6d…/, "the new task, left for echo at seq 5, fails; the lost one is not blamed for it");
  assert.equal(terminal[0]!.status, "fail");
});

test("task-polling-bounded passes a client that stopped polling a lost task and did not call the tool again, saying the journal cannot tell the rest", () => {
  const c = only([created(1, 0), get(2, 600, "working"), unknown(3, 1200), unknown(4, 1800)], "task-polling-bounded");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /polled it 1 more time, within 3, then stopped; it did not call slow_compute again \(the journal cannot tell whether it reported the loss\)/);
  assert.equal(checksOf([created(1, 0), unknown(2, 600), call(3, 5000, "echo", {})]).find((x) => x.id === "task-polled-to-terminal"), undefined, "a lost task is not a task left working");
});

// ---- task-input-key-answered-once ----

const question = (key: string) => ({ [key]: { method: "elicitation/create", params: { mode: "form", message: `${key}?`, requestedSchema: { type: "object" } } } });
/** A tasks/get answered input_required, showing these keys. */
const asking = (seq: number, at: number, ...keys: string[]) =>
  get(seq, at, "input_required", { result: { resultType: "complete", ...TASK, status: "input_required", inputRequests: Object.assign({}, ...keys.map(question)) } });
/** A tasks/update answering these keys (acknowledged unless `rest` says otherwise). */
const answering = (seq: number, at: number, keys: string[], rest: Partial<EntryInput> = {}) =>
  taskRequest(seq, at, "tasks/update", { resultType: "complete" }, { params: { taskId: ID, inputResponses: Object.fromEntries(keys.map((k) => [k, { action: "accept", content: { answer: k } }])) }, ...rest });

/** Two rounds (q1, then q2), the poll after each answer still showing the key just answered. */
const twoRounds = (again: string[]) => [
  created(1, 0),
  asking(2, 600, "q1"),
  answering(3, 610, ["q1"]),
  asking(4, 1200, "q1"),
  answering(5, 1210, again),
  asking(6, 1800, "q1", "q2"),
  answering(7, 1810, ["q2"]),
  asking(8, 2400, "q2"),
  get(9, 3000, "completed"),
];

test("task-input-key-answered-once passes when each key was answered once, though a later tasks/get showed it again", () => {
  const entries = twoRounds([]).filter((e) => e.seq !== 5);
  const c = only(entries, "task-input-key-answered-once");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /answered each of the 2 inputRequests keys of task 5fe57cf8… of slow_compute \(seq 1\) once, though tasks\/get showed an answered key 3 more times/);
  assert.deepEqual(c.evidence, [3, 7]);
});

test("task-input-key-answered-once fails on a client that answers a key again when a later tasks/get still shows it", () => {
  const c = only(twoRounds(["q1"]), "task-input-key-answered-once");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /answered key q1 of task 5fe57cf8… .* twice: tasks\/update at seq 3, then again at seq 5, after tasks\/get at seq 4 still showed it \(1 of 2 keys answered more than once/);
  assert.deepEqual(c.evidence, [3, 4, 5]);
});

test("task-input-key-answered-once counts an answer the server refused as no answer, so sending it again is no repeat", () => {
  const refused = answering(3, 610, ["q1"], { status: 429, result: undefined, error: { code: -32000, message: "Too Many Requests" } });
  const entries = [created(1, 0), asking(2, 600, "q1"), refused, answering(4, 1700, ["q1"]), get(5, 2300, "completed")];
  const c = only(entries, "task-input-key-answered-once");
  assert.equal(c.status, "pass", c.message);
  assert.deepEqual(c.evidence, [4]);
});

test("task-input-key-answered-once gives no check for a task that asked nothing, and judges the slim projection the same", async () => {
  assert.equal(checksOf(wellPolled()).find((c) => c.id === "task-input-key-answered-once"), undefined);
  const checks = await runChecks(twoRounds(["q1"]).map((e) => slimEntry(e, undefined)));
  assert.equal(checks.find((c) => c.id === "task-input-key-answered-once")?.status, "fail");
});

test("the task checks group the journal by task id: the requests of another task, or before the creation, are not this task's", () => {
  const OTHER = "0b1c2d3e-aaaa-bbbb-cccc-000000000000";
  const otherAnswer = entry({ seq: 4, at: 1300, method: "tasks/update", params: { taskId: OTHER, inputResponses: { q1: {} } }, headers: { "mcp-method": "tasks/update", "mcp-name": OTHER }, result: { resultType: "complete" } });
  const early = answering(1, 0, ["q1"]);
  const entries = [early, created(2, 10), asking(3, 610, "q1"), otherAnswer, answering(5, 1310, ["q1"]), get(6, 1910, "completed")];
  const c = only(entries, "task-input-key-answered-once");
  assert.equal(c.status, "pass", c.message);
  assert.deepEqual(c.evidence, [5]);
});

// ---- task-resumed-after-restart ----

/** A client's first request, as a restarted one sends it again. */
const discover = (seq: number, at: number) => entry({ seq, at, method: "server/discover", result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {}, serverInfo: { name: "s", version: "1" }, ttlMs: 0, cacheScope: "public" } });

test("task-resumed-after-restart passes a client that started over while its task worked and then polled the same task id", () => {
  const c = only([created(1, 0), get(2, 600, "working"), discover(3, 900), get(4, 1500, "completed")], "task-resumed-after-restart");
  assert.equal(c.status, "pass", c.message);
  assert.match(c.message, /started over \(server\/discover at seq 3\) while task 5fe57cf8… of slow_compute \(seq 1\) was not finished, and resumed it: tasks\/get at seq 4 names the same taskId/);
  assert.deepEqual(c.evidence, [1, 3, 4]);
});

test("task-resumed-after-restart fails a client that started over and never named its task again, naming the call it sent again", () => {
  const NEW = "9a8b7c6d-0000-4000-8000-000000000002";
  const c = only([created(1, 0), get(2, 600, "working"), discover(3, 900), created(4, 1000, { taskId: NEW })], "task-resumed-after-restart");
  assert.equal(c.status, "fail", c.message);
  assert.match(c.message, /never named the task again: it lost the task id .* It called slow_compute again at seq 4 instead, running the work twice/);
  assert.deepEqual(c.evidence, [1, 3, 4]);
});

test("task-resumed-after-restart gives no check when the task had finished before the client started over, or it never did", () => {
  assert.equal(checksOf([created(1, 0), get(2, 600, "completed"), discover(3, 900)]).find((x) => x.id === "task-resumed-after-restart"), undefined);
  assert.equal(checksOf([discover(1, 0), ...wellPolled().map((e) => ({ ...e, seq: e.seq + 1 }))]).find((x) => x.id === "task-resumed-after-restart"), undefined);
});

test("no task check is given for a journal without tasks", () => {
  assert.deepEqual(checksOf([call(1, 0, "echo", { text: "hi" })]).filter((c) => c.id.startsWith("task-")), []);
});
