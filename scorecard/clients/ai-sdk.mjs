// @ai-sdk/mcp 2.0.99: createMCPClient over its HTTP transport, the tools an AI SDK application hands its model
// (client.tools(), then each tool's execute). Eras: modern (protocolVersionDiscovery, the default) and legacy
// (protocolVersionDiscovery: false). --max-retries N sets the documented maxRetries (default 0: no retry).
import { createMCPClient } from "@ai-sdk/mcp";
import { connect, ECHO, era, MCP_URL, option, ORDER, step } from "./common.mjs";

const chosen = era(["modern", "legacy"]);
const maxRetries = option("max-retries", undefined);
const client = await connect("ai-sdk", () =>
  createMCPClient({
    transport: { type: "http", url: MCP_URL },
    clientName: "scorecard-ai-sdk",
    ...(chosen === "legacy" ? { protocolVersionDiscovery: false } : {}),
    ...(maxRetries !== undefined ? { maxRetries: Number(maxRetries) } : {}),
  }),
);
let tools = {};
await step("ai-sdk", "tools/list", async () => (tools = await client.tools()));
const run = (name, args) => async () => {
  if (!tools[name]) throw new Error(`no tool ${name} was listed`);
  await tools[name].execute(args, { toolCallId: `call-${name}`, messages: [] });
};
await step("ai-sdk", "echo", run("echo", ECHO));
await step("ai-sdk", "place_order", run("place_order", ORDER));
await client.close();
