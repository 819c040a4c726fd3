import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { createSession, postModern } from "../helpers/server.ts";

// A task outlives the server: created before a restart of `npm start` on the same state dir, polled after it.

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const stateDir = mkdtempSync(join(tmpdir(), "faultline-tasks-state-"));
let running: NpmServer | undefined;
after(async () => {
  await running?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

async function call(mcpUrl: string, id: number, method: string, params: Record<string, unknown>) {
  const headers: Record<string, string> = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const res = await postModern(mcpUrl, id, method, params, { capabilities: EXT, headers });
  return (await res.json()) as Record<string, any>;
}

test("a task created before a restart of the server is found after it and completes with its result", async () => {
  running = await npmStart(stateDir);
  const session = await createSession(running, "conformance");
  const created = await call(session.mcpUrl, 1, "tools/call", { name: "slow_compute", arguments: { seconds: 1, label: "across-restart" } });
  assert.equal(created.result?.resultType, "task", JSON.stringify(created));
  const taskId = created.result.taskId as string;
  await running.close();
  running = await npmStart(stateDir);
  const mcpUrl = session.mcpUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, running.url);
  let task: Record<string, any> = {};
  for (let i = 0; i < 30; i++) {
    task = (await call(mcpUrl, 10 + i, "tasks/get", { taskId })).result ?? {};
    if (task.status !== "working") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(task.taskId, taskId);
  assert.equal(task.status, "completed");
  assert.match(task.result.content[0].text, /across-restart/);
});
