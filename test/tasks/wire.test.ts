import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// SEP-2663 over loopback against the real Worker: the `conformance` session's task fixtures in the 2026-07-28 era.

type Json = Record<string, any>;
const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const EXT_AND_ELICITATION = { ...EXT, elicitation: {} };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

let mcp: string;
const server = useServer(async (started) => {
  mcp = (await createSession(started, "conformance")).mcpUrl;
});
void server;

let nextId = 1;
async function rpc(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = EXT, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const taskHeaders: Record<string, string> = method.startsWith("tasks/") && typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const res = await postModern(mcp, nextId++, method, params, { capabilities, headers: { ...taskHeaders, ...headers } });
  return { status: res.status, body: (await res.json()) as Json };
}
async function ok(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = EXT): Promise<Json> {
  const { status, body } = await rpc(method, params, capabilities);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}
async function fails(method: string, params: Record<string, unknown>, code: number, capabilities: Record<string, unknown> = EXT): Promise<Json> {
  const { body } = await rpc(method, params, capabilities);
  assert.equal(body.result, undefined, JSON.stringify(body.result));
  assert.equal(body.error?.code, code, JSON.stringify(body.error));
  return body.error;
}
async function startTask(name: string, args: Record<string, unknown> = {}, capabilities: Record<string, unknown> = EXT): Promise<Json> {
  const created = await ok("tools/call", { name, arguments: args }, capabilities);
  assert.equal(created.resultType, "task", JSON.stringify(created));
  return created;
}
/** Polls tasks/get until the status is one of `want` (bounded: the fixtures settle within about a second). */
async function pollUntil(taskId: string, want: string[]): Promise<Json> {
  for (let i = 0; i < 40; i++) {
    const task = await ok("tasks/get", { taskId });
    if (want.includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${taskId} never reached ${want.join("/")}`);
}

test("server/discover advertises the tasks extension under capabilities.extensions, and no legacy capabilities.tasks", async () => {
  const result = await ok("server/discover", {});
  assert.deepEqual(result.capabilities.extensions["io.modelcontextprotocol/tasks"], {});
  assert.equal(result.capabilities.tasks, undefined);
});

test("a task-supporting call from a declaring client answers a flat CreateTaskResult that tasks/get resolves at once", async () => {
  const created = await startTask("slow_compute", { seconds: 60, label: "flat" });
  for (const key of ["task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"]) assert.equal(key in created, false, key);
  assert.equal(typeof created.taskId, "string");
  assert.equal(created.status, "working");
  assert.match(created.createdAt, ISO);
  assert.match(created.lastUpdatedAt, ISO);
  assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0);
  assert.ok(Number.isInteger(created.pollIntervalMs) && created.pollIntervalMs > 0);
  const got = await ok("tasks/get", { taskId: created.taskId });
  assert.equal(got.resultType, "complete");
  assert.equal(got.taskId, created.taskId);
  assert.equal(got.status, "working");
  assert.equal("result" in got, false);
  await ok("tasks/cancel", { taskId: created.taskId });
});

test("a client that does not declare the extension gets the result inline from an optional task tool", async () => {
  const result = await ok("tools/call", { name: "slow_compute", arguments: { seconds: 0, label: "inline" } }, {});
  assert.equal(result.resultType, "complete");
  assert.equal(result.taskId, undefined);
  assert.match(result.content[0].text, /inline/);
});

test("declaring the extension in an earlier request does not count: each request's own capabilities decide", async () => {
  await ok("server/discover", {}, EXT);
  const result = await ok("tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, {});
  assert.equal(result.resultType, "complete");
});

test("a task-required tool called without the extension gets -32021 naming the extension in requiredCapabilities", async () => {
  const error = await fails("tools/call", { name: "failing_job", arguments: {} }, -32021, {});
  assert.deepEqual(error.data, { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
});

test("tasks/get, tasks/update and tasks/cancel without the extension get -32021", async () => {
  const created = await startTask("slow_compute", { seconds: 60 });
  await fails("tasks/get", { taskId: created.taskId }, -32021, {});
  await fails("tasks/update", { taskId: created.taskId, inputResponses: {} }, -32021, {});
  await fails("tasks/cancel", { taskId: created.taskId }, -32021, {});
  assert.equal((await ok("tasks/get", { taskId: created.taskId })).status, "working", "the refused cancel changed nothing");
  await ok("tasks/cancel", { taskId: created.taskId });
});

test("an unknown taskId gets -32602 on tasks/get, tasks/update and tasks/cancel", async () => {
  const error = await fails("tasks/get", { taskId: "no-such-task" }, -32602);
  assert.match(error.message, /not found/i);
  await fails("tasks/update", { taskId: "no-such-task", inputResponses: {} }, -32602);
  await fails("tasks/cancel", { taskId: "no-such-task" }, -32602);
});

test("tasks/get without a taskId gets -32602 naming params.taskId", async () => {
  // An empty Mcp-Name matches the absent taskId, so the request gets past the header check to the params check.
  const { body } = await rpc("tasks/get", {}, EXT, { "mcp-name": "" });
  assert.equal(body.error?.code, -32602, JSON.stringify(body));
  assert.match(body.error.message, /params\.taskId/);
});

test("tasks/result and tasks/list, removed by SEP-2663, get -32601", async () => {
  await fails("tasks/result", { taskId: "x" }, -32601);
  await fails("tasks/list", {}, -32601);
});

test("a tasks/get whose Mcp-Name differs from params.taskId gets 400 with -32020, and one without Mcp-Name too", async () => {
  const created = await startTask("slow_compute", { seconds: 60 });
  const wrong = await rpc("tasks/get", { taskId: created.taskId }, EXT, { "mcp-name": "another-task" });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error.code, -32020);
  const res = await postModern(mcp, nextId++, "tasks/get", { taskId: created.taskId }, { capabilities: EXT });
  const missing = (await res.json()) as Json;
  assert.equal(res.status, 400);
  assert.equal(missing.error.code, -32020);
  assert.match(missing.error.message, /Mcp-Name/);
  await ok("tasks/cancel", { taskId: created.taskId });
});

test("a finished task inlines the tool's result as a 2026-07-28 CallToolResult (its own resultType), and a tool error is completed with isError, not failed", async () => {
  const quick = await startTask("slow_compute", { seconds: 0, label: "done" });
  const done = await pollUntil(quick.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(done.status, "completed");
  assert.match(done.result.content[0].text, /done/);
  assert.equal(done.result.resultType, "complete", "the inlined CallToolResult is a Result of 2026-07-28, which carries resultType");
  const failing = await startTask("failing_job");
  const toolError = await pollUntil(failing.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(toolError.status, "completed");
  assert.equal(toolError.result.isError, true);
});

test("a JSON-RPC error during the work makes the task failed, with the error inlined and no result", async () => {
  const created = await startTask("protocol_error_job");
  const failed = await pollUntil(created.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(failed.status, "failed");
  assert.equal(failed.error.code, -32603);
  assert.equal(typeof failed.error.message, "string");
  assert.equal("result" in failed, false);
});

test("tasks/cancel acks with an empty result, the task is then cancelled, and a cancel of a finished task changes nothing", async () => {
  const created = await startTask("slow_compute", { seconds: 60 });
  const ack = await ok("tasks/cancel", { taskId: created.taskId });
  assert.deepEqual(Object.keys(ack).filter((k) => k !== "_meta"), ["resultType"]);
  assert.equal(ack.resultType, "complete");
  assert.equal((await ok("tasks/get", { taskId: created.taskId })).status, "cancelled");
  const quick = await startTask("slow_compute", { seconds: 0 });
  await pollUntil(quick.taskId, ["completed"]);
  assert.equal((await ok("tasks/cancel", { taskId: quick.taskId })).resultType, "complete");
  assert.equal((await ok("tasks/get", { taskId: quick.taskId })).status, "completed");
});

test("input_required through tasks: inputRequests on tasks/get, an unknown key ignored, the answer resumes the task", async () => {
  const created = await startTask("confirm_delete", { filename: "a.txt" }, EXT_AND_ELICITATION);
  const waiting = await pollUntil(created.taskId, ["input_required"]);
  assert.deepEqual(Object.keys(waiting.inputRequests), ["confirm"]);
  assert.equal(waiting.inputRequests.confirm.method, "elicitation/create");
  const ignored = await ok("tasks/update", { taskId: created.taskId, inputResponses: { "never-asked": { action: "accept" } } });
  assert.equal(ignored.resultType, "complete");
  assert.equal((await ok("tasks/get", { taskId: created.taskId })).status, "input_required");
  await ok("tasks/update", { taskId: created.taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
  const done = await pollUntil(created.taskId, ["completed", "failed", "cancelled"]);
  assert.equal(done.status, "completed");
  assert.match(done.result.content[0].text, /a\.txt: true/);
});

test("a partial tasks/update keeps the task input_required with only the unanswered key left", async () => {
  const created = await startTask("multi_input", {}, EXT_AND_ELICITATION);
  const waiting = await pollUntil(created.taskId, ["input_required"]);
  assert.deepEqual(Object.keys(waiting.inputRequests).sort(), ["confirm", "name"]);
  await ok("tasks/update", { taskId: created.taskId, inputResponses: { name: { action: "accept", content: { name: "Ada" } } } });
  const partial = await ok("tasks/get", { taskId: created.taskId });
  assert.equal(partial.status, "input_required");
  assert.deepEqual(Object.keys(partial.inputRequests), ["confirm"]);
  await ok("tasks/update", { taskId: created.taskId, inputResponses: { confirm: { action: "accept", content: { confirm: false } } } });
  const done = await pollUntil(created.taskId, ["completed"]);
  assert.match(done.result.content[0].text, /name: Ada; confirm: false/);
});

test("MRTR before the task: round 1 is input_required without taskId, round 2 a task whose result carries the answer", async () => {
  const round1 = await ok("tools/call", { name: "test_tool_with_task", arguments: {} }, EXT_AND_ELICITATION);
  assert.equal(round1.resultType, "input_required");
  assert.equal("taskId" in round1, false);
  const round2 = await ok("tools/call", {
    name: "test_tool_with_task",
    arguments: {},
    inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    requestState: round1.requestState,
  }, EXT_AND_ELICITATION);
  assert.equal(round2.resultType, "task");
  assert.equal("requestState" in round2, false);
  const done = await pollUntil(round2.taskId, ["completed", "failed"]);
  assert.match(done.result.content[0].text, /Alice/);
});

test("in the 2025-11-25 era the extension does not apply: a task tool answers inline and tasks/get is unknown", async () => {
  const legacy = await legacySession(mcp, "2025-11-25", EXT);
  const call = await legacy.post({ id: 1, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0, label: "legacy" } } });
  const text = await call.text();
  assert.match(text, /Computed legacy/);
  assert.doesNotMatch(text, /taskId/);
  const get = (await (await legacy.post({ id: 2, method: "tasks/get", params: { taskId: "x" } })).json()) as Json;
  assert.equal(get.error.code, -32601);
});
