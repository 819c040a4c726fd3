// @modelcontextprotocol/sdk 1.32.2 (the official SDK v1): Client over StreamableHTTPClientTransport, defaults.
// Era: legacy only (v1 speaks 2025-11-25 and before).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

era(["legacy"]);
const client = new Client({ name: "scorecard-sdk-v1", version: "0.0.0" });
await connect("sdk-v1", () => client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL))));
await step("sdk-v1", "tools/list", () => client.listTools());
await step("sdk-v1", "echo", () => client.callTool({ name: "echo", arguments: ECHO }));
await step("sdk-v1", "place_order", () => client.callTool({ name: "place_order", arguments: ORDER }));
await client.close();
