/** Ready-made inputs for the /classify playground: raw `curl -si` output and JSON exchanges. */
export interface ClassifyExample {
  id: string;
  label: string;
  text: string;
}

const exchange = (value: unknown) => JSON.stringify(value, null, 2);

export const CLASSIFY_EXAMPLES: readonly ClassifyExample[] = [
  {
    id: "http-503",
    label: "503 + Retry-After",
    text: ["HTTP/1.1 503 Service Unavailable", "Content-Type: text/plain", "Retry-After: 2", "", "upstream overloaded", ""].join("\n"),
  },
  {
    id: "jsonrpc-error",
    label: "JSON-RPC error",
    text: exchange({
      status: 200,
      headers: { "content-type": "application/json" },
      body: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: quantity must be positive" } },
      expectedId: 1,
      method: "tools/call",
    }),
  },
  {
    id: "tool-error",
    label: "Tool error",
    text: exchange({
      status: 200,
      headers: { "content-type": "application/json" },
      body: { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "Payment declined" }], isError: true } },
      expectedId: 3,
      method: "tools/call",
    }),
  },
  {
    id: "sse-cut",
    label: "SSE cut short",
    text: [
      "HTTP/1.1 200 OK",
      "Content-Type: text/event-stream",
      "",
      "id: ev-1",
      "retry: 500",
      "data: ",
      "",
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
      "",
      "",
    ].join("\n"),
  },
  {
    id: "success",
    label: "Success",
    text: exchange({
      status: 200,
      headers: { "content-type": "application/json" },
      body: { jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "text", text: "72F and sunny" }] } },
      expectedId: 7,
    }),
  },
];
