import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import type { Check } from "../../src/checks/index.ts";
import { createSession, MODERN, postModern, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";

// tasks.input_rounds over loopback (rounds 2, staleReads 1): survey asks question_1, then question_2, and the
// tasks/get after each tasks/update still shows the key just answered. A scripted client that answers whatever
// inputRequests holds, one that tracks the keys it answered, and the ext-tasks client (0.2.2), with the checks each gets.

type Json = Record<string, any>;
const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };
const server = useServer();

async function checksOf(sessionId: string, entries: number): Promise<Record<string, Check>> {
  await journalOf(server.url, sessionId, entries);
  const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
  return Object.fromEntries(checks.filter((c) => c.id.startsWith("task-")).map((c) => [c.id, c]));
}

/** A scripted survey client polling at the pollIntervalMs asked; `tracks` says whether it skips keys it has answered. */
async function scripted(tracks: boolean) {
  const session = await createSession(server, "tasks.input_rounds");
  let id = 1;
  const post = async (method: string, params: Json, name: string) => (await (await postModern(session.mcpUrl, id++, method, params, { capabilities: EXT, headers: { "mcp-name": name } })).json()) as Json;
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
  return { task, sent, checks: await checksOf(session.id, id - 1) };
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
  const session = await createSession(server, "tasks.input_rounds");
  let id = 1000;
  let posts = 1; // the SDK client's server/discover
  const dispatch: RawClientDispatch = async (request, options) => {
    const message = request as Json;
    const name: Record<string, string> = message.method === "tools/call" ? { "mcp-name": String(message.params?.name) } : {};
    posts++;
    const res = await fetch(session.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": String(message.method), ...name, ...options?.context?.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, ...message }),
    });
    const body = (await res.json()) as Json;
    return body.error ? { kind: "error", error: body.error } : { kind: "result", result: body.result };
  };
  const info = { name: "ext-tasks-test", version: "0.0.0" };
  const client = new Client(info, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  const asked: string[] = [];
  const tasks = createTaskSessionFromClient(client, {
    endpointId: session.id,
    rawDispatch: dispatch,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: info, clientCapabilities: { elicitation: {} } },
    onInputRequest: async (_request, context) => {
      asked.push(String((context as Json).inputId));
      return { action: "accept", content: { answer: "yes" } } as never;
    },
  });
  t.after(async () => {
    await tasks.close();
    await client.close();
  });
  const execution = await tasks.callTool("survey", { topic: "tests" });
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.deepEqual(asked, ["question_1", "question_2"], "each question put to the application once");
  const checks = await checksOf(session.id, posts);
  const c = checks["task-input-key-answered-once"];
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c!.message, /though tasks\/get showed an answered key/, "the stale reads reached it");
  assert.equal(checks["task-polled-to-terminal"]?.status, "pass");
  assert.equal(checks["task-mcp-name-sent"]?.status, "pass");
});
