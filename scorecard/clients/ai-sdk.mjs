// @ai-sdk/mcp 2.0.99: createMCPClient over its HTTP transport, the tools an AI SDK application hands its model
// (client.tools(), then each tool's execute), with an OAuth client provider (the transport's authProvider). Eras:
// modern (protocolVersionDiscovery, the default) and legacy (protocolVersionDiscovery: false). --max-retries N sets the
// documented maxRetries (default 0: no retry). The transport has no finishAuth: the completion is the package's
// exported auth(provider, { serverUrl, authorizationCode }), as in its mcp-with-auth example, then a new client.
import { auth, createMCPClient } from "@ai-sdk/mcp";
import { connectAuthorized, ECHO, era, MCP_URL, option, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

const chosen = era(["modern", "legacy"]);
const maxRetries = option("max-retries", undefined);
const oauth = await oauthClient("scorecard-ai-sdk", say);
const client = await connectAuthorized(
  "ai-sdk",
  oauth,
  () =>
    createMCPClient({
      transport: { type: "http", url: MCP_URL, authProvider: oauth.provider },
      clientName: "scorecard-ai-sdk",
      ...(chosen === "legacy" ? { protocolVersionDiscovery: false } : {}),
      ...(maxRetries !== undefined ? { maxRetries: Number(maxRetries) } : {}),
    }),
  (query) => auth(oauth.provider, { serverUrl: new URL(MCP_URL), authorizationCode: query.get("code") ?? "", callbackIssuer: query.get("iss") ?? undefined }),
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
