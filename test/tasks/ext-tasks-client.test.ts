import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch, type TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";
import { createSession, MODERN, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";

// The official task client, @modelcontextprotocol/ext-tasks 0.2.2 (its ./client export), on the official v2 SDK
// client pinned to 2026-07-28, against the `conformance` session's task fixtures over loopback. The package leaves
// the 2026-07-28 task wire to the host (`rawDispatch`): it builds each request (method, params, the Mcp-Name of
// tasks/*) and this file's dispatcher only posts it, as any host would.

type Json = Record<string, any>;
const server = useServer();

const CLIENT_INFO = { name: "ext-tasks-test", version: "0.0.0" };

/** POSTs what the package built, with the headers it asked for (Mcp-Name on tasks/*) and the SEP-2243 ones every request carries. */
function dispatcher(mcpUrl: string): RawClientDispatch {
  let id = 1000;
  return async (request, options) => {
    const message = request as Json;
    const name: Record<string, string> = message.method === "tools/call" ? { "mcp-name": String(message.params?.name) } : {};
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": String(message.method),
        ...name,
        ...options?.context?.headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, ...message }),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    const body = (await res.json()) as Json;
    return body.error ? { kind: "error", error: body.error } : { kind: "result", result: body.result };
  };
}

/** A task session of the real package on a connected v2 client, answering every elicitation with `confirm: true`. */
async function taskSession(t: TestContext): Promise<{ tasks: TaskEnabledSession; sessionId: string; asked: Json[] }> {
  const session = await createSession(server, "conformance");
  const client = new Client(CLIENT_INFO, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  const asked: Json[] = [];
  const tasks = createTaskSessionFromClient(client, {
    endpointId: `faultline-${session.id}`,
    rawDispatch: dispatcher(session.mcpUrl),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: { elicitation: {} } },
    onInputRequest: async (request) => {
      asked.push(request as Json);
      return { action: "accept", content: { confirm: true } } as never;
    },
  });
  t.after(async () => {
    await tasks.close();
    await client.close();
  });
  return { tasks, sessionId: session.id, asked };
}

const textOf = (result: unknown) => ((result as Json).content as Json[]).map((c) => c.text).join("");
const taskRequests = (entries: JournalEntry[]) => entries.filter((e) => e.rpc.method?.startsWith("tasks/"));

/** The journal's entries once its last tasks/* request is in (the package's requests end with the one that settles). */
async function journalWith(sessionId: string, method: string): Promise<JournalEntry[]> {
  for (let n = 1; ; n++) {
    const entries = await journalOf(server.url, sessionId, n);
    if (entries.some((e) => e.rpc.method === method)) return entries;
  }
}

/** The session's task checks, by id: status. */
async function taskChecks(sessionId: string): Promise<Record<string, string>> {
  const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
  return Object.fromEntries(checks.filter((c) => c.id.startsWith("task-")).map((c) => [c.id, c.status]));
}

test("the ext-tasks client gets a task from slow_compute, polls tasks/get with Mcp-Name and settles on the completed result", async (t) => {
  const { tasks, sessionId } = await taskSession(t);
  assert.equal(tasks.capabilities.execution, true, "the package read the extension from server/discover");
  const execution = await tasks.callTool("slow_compute", { seconds: 1, label: "ext-tasks" });
  assert.equal(execution.kind, "task");
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.equal(textOf(outcome.status === "completed" ? outcome.result : {}), "Computed ext-tasks after 1 s");
  const polls = taskRequests(await journalWith(sessionId, "tasks/get"));
  assert.ok(polls.length >= 1);
  for (const poll of polls) {
    assert.equal(poll.rpc.method, "tasks/get");
    assert.equal(poll.request.headers["mcp-name"], execution.kind === "task" ? execution.handle.taskId : "", "Mcp-Name is the taskId");
  }
  assert.deepEqual(await taskChecks(sessionId), { "task-poll-interval-honoured": "pass", "task-polled-to-terminal": "pass", "task-mcp-name-sent": "pass" });
});

test("the ext-tasks client answers an input_required task: tasks/get shows the question, tasks/update answers it, the task completes", async (t) => {
  const { tasks, sessionId, asked } = await taskSession(t);
  const execution = await tasks.callTool("confirm_delete", { filename: "report.txt" });
  assert.equal(execution.kind, "task");
  const { outcome } = await execution.settle();
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.equal(textOf(outcome.status === "completed" ? outcome.result : {}), "Deletion of report.txt: true");
  assert.equal(asked.length, 1, "the question was put to the application once");
  assert.equal(asked[0]?.kind, "elicitation");
  const methods = taskRequests(await journalWith(sessionId, "tasks/update")).map((e) => e.rpc.method);
  assert.deepEqual(methods.filter((m) => m === "tasks/update"), ["tasks/update"], "one tasks/update, for the one key");
  assert.ok(methods.indexOf("tasks/get") < methods.indexOf("tasks/update"), "the question was read from tasks/get first");
  assert.equal(methods.at(-1), "tasks/get", "it polled again after the update, until completed");
  assert.deepEqual(await taskChecks(sessionId), { "task-poll-interval-honoured": "pass", "task-polled-to-terminal": "pass", "task-mcp-name-sent": "pass", "task-input-key-answered-once": "pass" });
});

test("the ext-tasks client cancels a working task with tasks/cancel, and the task is cancelled", async (t) => {
  const { tasks, sessionId } = await taskSession(t);
  const execution = await tasks.callTool("slow_compute", { seconds: 60, label: "to cancel" });
  assert.equal(execution.kind, "task");
  if (execution.kind !== "task") return;
  const taskId = execution.handle.taskId;
  await execution.cancel();
  const entries = await journalWith(sessionId, "tasks/cancel");
  const cancel = entries.find((e) => e.rpc.method === "tasks/cancel");
  assert.equal(cancel?.request.headers["mcp-name"], taskId);
  assert.equal(cancel?.response.status, 200);
  const view = await tasks.task(taskId).snapshot();
  assert.equal(view.status, "cancelled");
  // The snapshot above is the one look after the cancel that SEP-2663 allows; the package itself polled no more.
  const checks = await taskChecks(sessionId);
  assert.equal(checks["task-not-polled-after-cancel"], "pass");
  assert.equal(checks["task-mcp-name-sent"], "pass");
});
