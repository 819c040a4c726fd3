/**
 * A task client for `faultline run --restart-after-task` on the conformance scenario: it starts slow_compute as a
 * task and polls it. TASK_CLIENT_MODE=persist keeps the task id in TASK_STATE_FILE and, run again with
 * FAULTLINE_RESTARTED=1, polls that task on; forget starts a new task after the restart.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const url = process.env.FAULTLINE_MCP_URL ?? "";
const state = process.env.TASK_STATE_FILE ?? "";
const persist = process.env.TASK_CLIENT_MODE === "persist";
if (url === "" || state === "") throw new Error("FAULTLINE_MCP_URL and TASK_STATE_FILE must be set");
const VERSION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  "io.modelcontextprotocol/clientInfo": { name: "faultline-task-restart-client", version: "0.0.0" },
};
let id = Date.now();

async function send(method: string, params: Record<string, unknown>, name?: string): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": VERSION, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: META } }),
  });
  return (await response.json()) as Record<string, any>;
}

await send("server/discover", {});
let taskId: string;
let wait = 500;
if (persist && process.env.FAULTLINE_RESTARTED === "1" && existsSync(state)) {
  taskId = readFileSync(state, "utf8");
} else {
  const created = (await send("tools/call", { name: "slow_compute", arguments: { seconds: 2, label: "restart" } }, "slow_compute")).result;
  taskId = created.taskId;
  wait = created.pollIntervalMs;
  writeFileSync(state, taskId);
}
for (let i = 0; i < 40; i++) {
  await new Promise((resolve) => setTimeout(resolve, wait));
  const task = (await send("tasks/get", { taskId }, taskId)).result;
  if (["completed", "failed", "cancelled"].includes(task.status)) break;
  wait = task.pollIntervalMs;
}
