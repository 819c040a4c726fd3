/** What the test clients share: one stateless 2026-07-28 request to the session Faultline gives them. */

export const MCP_URL = process.env.FAULTLINE_MCP_URL ?? "";
if (MCP_URL === "") throw new Error("FAULTLINE_MCP_URL is not set: run this client under faultline run");

const VERSION = "2026-07-28";

/** POSTs one JSON-RPC request with the headers and _meta 2026-07-28 asks for. */
export function post(id: number, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "faultline-run-test-client", version: "0.0.0" },
  };
  return fetch(MCP_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": VERSION, "mcp-method": method, ...name },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } }),
  });
}

/**
 * Calls the echo tool until it gets a 2xx, at most `attempts` times; `waitMs` says how long to wait before a retry,
 * given the failed response. Returns the last status.
 */
export async function echoWithRetries(attempts: number, waitMs: (failed: Response) => number): Promise<number> {
  let status = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const response = await post(attempt, "tools/call", { name: "echo", arguments: { text: "hello" } });
    await response.arrayBuffer();
    status = response.status;
    if (response.ok) break;
    await new Promise((resolve) => setTimeout(resolve, waitMs(response)));
  }
  return status;
}
