// @openai/agents 0.20.0: MCPServerStreamableHttp, the way an Agents SDK application connects a remote server
// (connect, listTools, callTool, close), defaults, with an OAuth client provider (authProvider, handed to its
// @modelcontextprotocol/client transport). Era: modern only (it runs @modelcontextprotocol/client v2 with
// versionNegotiation auto, and offers no option to choose legacy). It exposes no transport, so no finishAuth: the
// completion is @modelcontextprotocol/client's exported auth(provider, { serverUrl, authorizationCode, iss }), then a
// new MCPServerStreamableHttp.
import { auth } from "@modelcontextprotocol/client";
import { MCPServerStreamableHttp } from "@openai/agents";
import { connectAuthorized, ECHO, era, MCP_URL, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

era(["modern"]);
const oauth = await oauthClient("scorecard-openai-agents", say);
let server;
await connectAuthorized(
  "openai-agents",
  oauth,
  () => (server = new MCPServerStreamableHttp({ url: MCP_URL, name: "faultline", authProvider: oauth.provider })).connect(),
  (query) => auth(oauth.provider, { serverUrl: new URL(MCP_URL), authorizationCode: query.get("code") ?? "", iss: query.get("iss") ?? undefined }),
);
await step("openai-agents", "tools/list", () => server.listTools());
await step("openai-agents", "echo", () => server.callTool("echo", ECHO));
await step("openai-agents", "place_order", () => server.callTool("place_order", ORDER));
await server.close();
