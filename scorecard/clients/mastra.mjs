// @mastra/mcp 2.0.0: MCPClient with one server, the tools a Mastra agent is given (listTools, then each tool's
// execute), defaults, with an OAuth client provider (the server's authProvider). Eras: modern (the default: it probes
// for 2026-07-28) and legacy (protocolVersion: "legacy"). Its documented completion, authenticate(), takes only its
// own MCPOAuthClientProvider, which registers no client (a pre-registered client_id or an https Client ID Metadata
// Document, neither of which a per-session loopback authorization server can have). So the provider is the shared
// one, which registers dynamically; a server left in getServerAuthState() "needs-auth" is completed with the
// package's exported auth(provider, { serverUrl, authorizationCode, iss }), then a new MCPClient.
import { auth, MCPClient } from "@mastra/mcp";
import { connectAuthorized, ECHO, era, MCP_URL, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

const chosen = era(["modern", "legacy"]);
const oauth = await oauthClient("scorecard-mastra", say);
const server = { url: new URL(MCP_URL), authProvider: oauth.provider, ...(chosen === "legacy" ? { protocolVersion: "legacy" } : {}) };
let client;
let tools = {};
let attempts = 0;
await connectAuthorized(
  "mastra",
  oauth,
  async () => {
    await client?.disconnect();
    client = new MCPClient({ id: `scorecard-${process.pid}-${++attempts}`, servers: { faultline: server } });
    // listTools connects; it logs a server that fails and leaves its tools out rather than throwing.
    tools = await client.listTools();
    if (client.getServerAuthState("faultline") === "needs-auth") throw new Error("the server is left needing authorization (getServerAuthState: needs-auth)");
  },
  (query) => auth(oauth.provider, { serverUrl: new URL(MCP_URL), authorizationCode: query.get("code") ?? "", iss: query.get("iss") ?? undefined }),
);
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
