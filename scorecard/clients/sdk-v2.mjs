// @modelcontextprotocol/client 2.4.0 (the official SDK v2): Client over StreamableHTTPClientTransport, defaults, with an
// OAuth client provider (authProvider). Eras: legacy (the default versionNegotiation mode) and modern (mode auto:
// 2026-07-28 found by server/discover). OAuth as the SDK documents it: connect; on UnauthorizedError,
// transport.finishAuth(the callback's query, so that its RFC 9207 iss is checked), then connect with a new transport.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { connectAuthorized, ECHO, era, MCP_URL, ORDER, say, step } from "./common.mjs";
import { oauthClient } from "./support/oauth.mjs";

const chosen = era(["legacy", "modern"]);
const options = chosen === "modern" ? { versionNegotiation: { mode: "auto" } } : {};
const oauth = await oauthClient("scorecard-sdk-v2", say);
const client = new Client({ name: "scorecard-sdk-v2", version: "0.0.0" }, options);
let transport;
await connectAuthorized(
  "sdk-v2",
  oauth,
  () => client.connect((transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: oauth.provider }))),
  (query) => transport.finishAuth(query),
);
process.stderr.write(`sdk-v2: era ${client.getProtocolEra()} at ${client.getNegotiatedProtocolVersion()}\n`);
await step("sdk-v2", "tools/list", () => client.listTools());
await step("sdk-v2", "echo", () => client.callTool({ name: "echo", arguments: ECHO }));
await step("sdk-v2", "place_order", () => client.callTool({ name: "place_order", arguments: ORDER }));
await client.close();
