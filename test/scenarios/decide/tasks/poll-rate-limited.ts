import { cases, method } from "../../../helpers/decide.ts";

const poll = (taskId: string) => method("tasks/get", { headers: { "mcp-name": taskId } });
const LIMITED = { kind: "rate_limited", retryAfter: 1, body: "jsonrpc" } as const;

export default cases("tasks.poll_rate_limited", [
  {
    name: "every second tasks/get of each task gets 429 with Retry-After, counted per task",
    steps: [
      { request: poll("t1"), fault: undefined },
      { request: poll("t2"), fault: undefined },
      { request: poll("t1"), fault: LIMITED },
      { request: poll("t1"), fault: undefined },
      { request: poll("t2"), fault: LIMITED },
    ],
  },
  {
    name: "every: 1 limits every poll, with the Retry-After asked; other methods and the 2025 wire are never limited",
    params: { every: 1, seconds: 5 },
    steps: [
      { request: method("tools/call"), fault: undefined },
      { request: method("tasks/cancel", { headers: { "mcp-name": "t1" } }), fault: undefined },
      { request: poll("t1"), fault: { ...LIMITED, retryAfter: 5 } },
      { request: { ...poll("t1"), era: "legacy", protocolVersion: "2025-11-25" }, fault: undefined },
    ],
  },
]);
