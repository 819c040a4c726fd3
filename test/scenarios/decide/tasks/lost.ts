import { cases, method } from "../../../helpers/decide.ts";

const req = (name: string, taskId: string) => method(name, { headers: { "mcp-name": taskId } });
const poll = (taskId: string) => req("tasks/get", taskId);
const LOST = (taskId: string) => ({ kind: "jsonrpc_error", code: -32602, message: "Failed to retrieve task: Task not found", data: { taskId }, httpStatus: 200 });

export default cases("tasks.lost", [
  {
    name: "the first task polled is lost after two requests about it; a task polled later, as one created again, is kept",
    steps: [
      { request: poll("t1"), fault: undefined },
      { request: poll("t1"), fault: undefined },
      { request: poll("t1"), fault: LOST("t1") },
      { request: req("tasks/cancel", "t1"), fault: LOST("t1") },
      { request: poll("t2"), fault: undefined },
      { request: poll("t2"), fault: undefined },
      { request: poll("t2"), fault: undefined },
      { request: poll("t2"), fault: undefined },
      { request: poll("t1"), fault: LOST("t1") },
    ],
  },
  {
    name: "after: 0 loses at once; tasks: 2 loses the first two task ids, each by its own count, and not the third",
    params: { after: 0, tasks: 2 },
    steps: [
      { request: req("tasks/update", "a"), fault: LOST("a") },
      { request: poll("b"), fault: LOST("b") },
      { request: poll("c"), fault: undefined },
      { request: poll("c"), fault: undefined },
      { request: poll("a"), fault: LOST("a") },
    ],
  },
  {
    name: "tools/call and the 2025 wire are never faulted",
    params: { after: 0 },
    steps: [
      { request: method("tools/call"), fault: undefined },
      { request: { ...poll("t1"), era: "legacy", protocolVersion: "2025-11-25" }, fault: undefined },
    ],
  },
]);
