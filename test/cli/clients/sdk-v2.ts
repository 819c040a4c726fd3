// A well-behaved client on the official SDK v2 client: connects, lists the tools, calls echo and place_order once
// each, and adds no retry of its own. A failed call is reported and the client goes on, as an agent shows the error
// to its model; a failed connect ends it with a non-zero exit status.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MCP_URL } from "./mcp.ts";

const client = new Client({ name: "faultline-run-sdk-v2", version: "0.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL)));
const step = (name: string, call: () => Promise<unknown>) =>
  call().then(
    () => process.stderr.write(`sdk-v2: ${name} ok\n`),
    (error: unknown) => process.stderr.write(`sdk-v2: ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`),
  );
await step("tools/list", () => client.listTools());
await step("echo", () => client.callTool({ name: "echo", arguments: { text: "hello" } }));
await step("place_order", () => client.callTool({ name: "place_order", arguments: { item: "book", quantity: 1 } }));
await client.close();
