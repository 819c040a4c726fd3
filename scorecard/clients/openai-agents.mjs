// @openai/agents 0.20.0: MCPServerStreamableHttp, the way an Agents SDK application connects a remote server
// (connect, listTools, callTool, close), defaults. Era: modern only (it runs @modelcontextprotocol/client v2 with
// versionNegotiation auto, and offers no option to choose legacy).
import { MCPServerStreamableHttp } from "@openai/agents";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

era(["modern"]);
const server = new MCPServerStreamableHttp({ url: MCP_URL, name: "faultline" });
await connect("openai-agents", () => server.connect());
await step("openai-agents", "tools/list", () => server.listTools());
await step("openai-agents", "echo", () => server.callTool("echo", ECHO));
await step("openai-agents", "place_order", () => server.callTool("place_order", ORDER));
await server.close();
