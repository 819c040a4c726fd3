import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { useServer } from "../helpers/server.ts";
import { checksById, extTasksSession, scriptedSession, TASKS_EXT } from "../helpers/tasks.ts";

// tasks.input_rounds over loopback (rounds 2, staleReads 1): survey asks question_1, then question_2, and the
// tasks/get after each tasks/update still shows the key just answered. A scripted client that answers whatever
// inputRequests holds, one that tracks the keys it answered, and the ext-tasks client (0.2.2), with the checks each gets.

type Json = Record<string, any>;
const EXT = { ...TASKS_EXT, elicitation: {} };
const server = useServer();

const checksOf = (sessionId: string, entries: number) => checksById(server, sessionId, entries, "task-");

/** A scripted survey client polling at the pollIntervalMs asked; `tracks` says whether it skips keys it has answered. */
async function scripted(tracks: boolean) {
  const session = await scriptedSession(server, "tasks.input_rounds", {}, EXT);
  const post = session.postJson;
  const created = (await post("tools/call", { name: "survey", arguments: { topic: "tests" } }, "survey")).result;
  assert.equal(created.resultType, "task");
  const answered = new Set<string>();
  const sent: string[][] = [];
  let task: Json = created;
  for (let i = 0; i < 30 && !["completed", "failed", "cancelled"].includes(task.status); i++) {
    await sleep(task.pollIntervalMs);
    task = (await post("tasks/get", { taskId: created.taskId }, created.taskId)).result;
    if (task.status !== "input_required") continue;
    const keys = Object.keys(task.inputRequests).filter((key) => !tracks || !answered.has(key));
    if (keys.length === 0) continue;
    await post("tasks/update", { taskId: created.taskId, inputResponses: Object.fromEntries(keys.map((key) => [key, { action: "accept", content: { answer: key } }])) }, created.taskId);
    keys.forEach((key) => answered.add(key));
    sent.push(keys);
  }
  return { task, sent, checks: await checksOf(session.sessionId, session.sent()) };
}

test("a survey client that answers every key tasks/get shows answers question_1 twice and fails task-input-key-answered-once", async () => {
  const { task, sent, checks } = await scripted(false);
  assert.equal(task.status, "completed");
  // The poll after its first answer came after roundMs: it showed question_1 again beside question_2, and so on.
  assert.deepEqual(sent.slice(0, 3), [["question_1"], ["question_1", "question_2"], ["question_2"]], "each stale read made it answer again");
  const c = checks["task-input-key-answered-once"];
  assert.equal(c?.status, "fail", c?.message);
  assert.match(c!.message, /answered key question_1 of task .* of survey \(seq 1\) twice: tasks\/update at seq \d+, then again at seq \d+, after tasks\/get at seq \d+ still showed it \(2 of 2 keys answered more than once/);
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass", "it breaks this rule only");
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
});

test("a survey client that tracks the keys it answered answers each once and passes, though tasks/get showed them again", async () => {
  const { task, sent, checks } = await scripted(true);
  assert.equal(task.status, "completed");
  assert.equal(task.result.content[0].text, "question_1: question_1; question_2: question_2");
  assert.deepEqual(sent, [["question_1"], ["question_2"]]);
  const c = checks["task-input-key-answered-once"];
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c!.message, /answered each of the 2 inputRequests keys .* once, though tasks\/get showed an answered key [2-9] more times/);
  assert.equal(checks["task-poll-interval-honoured"]?.status, "pass");
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
});

test("the ext-tasks client (0.2.2) answers each survey key once: it skips a key it has answered when tasks/get shows it again", async (t) => {
  const asked: string[] = [];
  const { tasks, sessionId, posts } = await extTasksSession(t, server, "tasks.input_rounds", {
    capabilities: { elicitation: {} },
    onInputRequest: async (_request, context) => {
      asked.push(String((context as Json).inputId));
      return { action: "accept", content: { answer: "yes" } } as never;
    },
  });
  const execution = await tasks.callTool("survey", { topic: "tests" });
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.deepEqual(asked, ["question_1", "question_2"], "each question put to the application once");
  const checks = await checksOf(sessionId, posts());
  const c = checks["task-input-key-answered-once"];
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c!.message, /though tasks\/get showed an answered key/, "the stale reads reached it");
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
});
