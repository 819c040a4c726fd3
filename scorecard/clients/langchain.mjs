// @langchain/mcp-adapters 1.1.4: MultiServerMCPClient with one Streamable HTTP server, the LangChain tools an agent
// is given (getTools, then each tool's invoke), defaults. Era: legacy only (it runs on @modelcontextprotocol/sdk v1).
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

era(["legacy"]);
const client = new MultiServerMCPClient({ mcpServers: { faultline: { transport: "http", url: MCP_URL } } });
let tools = [];
await connect("langchain", async () => (tools = await client.getTools()));
process.stderr.write(`langchain: tools/list ok (${tools.map((t) => t.name).join(", ")})\n`);
const tool = (name) => tools.find((t) => t.name === name || t.name.endsWith(`__${name}`));
const run = (name, args) => async () => {
  if (!tool(name)) throw new Error(`no tool ${name} was listed`);
  await tool(name).invoke(args);
};
await step("langchain", "echo", run("echo", ECHO));
await step("langchain", "place_order", run("place_order", ORDER));
await client.close();
