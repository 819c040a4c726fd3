// @modelcontextprotocol/sdk 1.32.2 (the official SDK v1): Client over StreamableHTTPClientTransport, defaults, with an
// OAuth client provider (authProvider). Era: legacy only (v1 speaks 2025-11-25 and before). OAuth as the SDK's
// simpleOAuthClient example does it: connect; on UnauthorizedError, transport.finishAuth(code), then connect again
// with a new transport.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectAuthorized, ECHO, era, MCP_URL, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

era(["legacy"]);
const oauth = await oauthClient("scorecard-sdk-v1", say);
const client = new Client({ name: "scorecard-sdk-v1", version: "0.0.0" });
let transport;
await connectAuthorized(
  "sdk-v1",
  oauth,
  () => client.connect((transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: oauth.provider }))),
  (query) => transport.finishAuth(query.get("code") ?? ""),
);
await step("sdk-v1", "tools/list", () => client.listTools());
await step("sdk-v1", "echo", () => client.callTool({ name: "echo", arguments: ECHO }));
await step("sdk-v1", "place_order", () => client.callTool({ name: "place_order", arguments: ORDER }));
await client.close();
