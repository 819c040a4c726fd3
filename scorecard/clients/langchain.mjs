// @langchain/mcp-adapters 1.1.4: MultiServerMCPClient with one Streamable HTTP server, the LangChain tools an agent
// is given (getTools, then each tool's invoke), defaults, with an OAuth client provider (the server's authProvider).
// Era: legacy only (it runs on @modelcontextprotocol/sdk v1). Its README leaves the OAuth flow to the SDK's
// OAuthClientProvider and exposes no transport, so no finishAuth: the completion is the SDK's exported
// auth(provider, { serverUrl, authorizationCode }), then a new MultiServerMCPClient.
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { connectAuthorized, ECHO, era, MCP_URL, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

era(["legacy"]);
const oauth = await oauthClient("scorecard-langchain", say);
let client;
let tools = [];
await connectAuthorized(
  "langchain",
  oauth,
  async () => {
    await client?.close();
    client = new MultiServerMCPClient({ mcpServers: { faultline: { transport: "http", url: MCP_URL, authProvider: oauth.provider } } });
    tools = await client.getTools();
  },
  (query) => auth(oauth.provider, { serverUrl: new URL(MCP_URL), authorizationCode: query.get("code") ?? "" }),
);
process.stderr.write(`langchain: tools/list ok (${tools.map((t) => t.name).join(", ")})\n`);
const tool = (name) => tools.find((t) => t.name === name || t.name.endsWith(`__${name}`));
const run = (name, args) => async () => {
  if (!tool(name)) throw new Error(`no tool ${name} was listed`);
  await tool(name).invoke(args);
};
await step("langchain", "echo", run("echo", ECHO));
await step("langchain", "place_order", run("place_order", ORDER));
await client.close();
