// @mastra/mcp 2.0.0: MCPClient with one server, the tools a Mastra agent is given (listTools, then each tool's
// execute), defaults. Eras: modern (the default: it probes for 2026-07-28) and legacy (protocolVersion: "legacy").
import { MCPClient } from "@mastra/mcp";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

const chosen = era(["modern", "legacy"]);
const server = { url: new URL(MCP_URL), ...(chosen === "legacy" ? { protocolVersion: "legacy" } : {}) };
const client = new MCPClient({ id: `scorecard-${process.pid}`, servers: { faultline: server } });
let tools = {};
// listTools connects; it logs a server that fails and leaves its tools out rather than throwing.
await connect("mastra", async () => (tools = await client.listTools()));
process.stderr.write(`mastra: tools/list gave ${Object.keys(tools).join(", ") || "no tools"} (${JSON.stringify(client.getServerProtocolVersions())})\n`);
const run = (name, args) => async () => {
  const tool = tools[`faultline_${name}`];
  if (!tool) throw new Error(`no tool ${name} was listed`);
  const result = await tool.execute(args, {});
  if (result && typeof result === "object" && result.error === true) throw new Error(String(result.message));
};
await step("mastra", "echo", run("echo", ECHO));
await step("mastra", "place_order", run("place_order", ORDER));
await client.disconnect();
