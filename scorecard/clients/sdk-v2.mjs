// @modelcontextprotocol/client 2.4.0 (the official SDK v2): Client over StreamableHTTPClientTransport, defaults.
// Eras: legacy (the default versionNegotiation mode) and modern (mode auto: 2026-07-28 found by server/discover).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

const chosen = era(["legacy", "modern"]);
const options = chosen === "modern" ? { versionNegotiation: { mode: "auto" } } : {};
const client = new Client({ name: "scorecard-sdk-v2", version: "0.0.0" }, options);
await connect("sdk-v2", () => client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL))));
process.stderr.write(`sdk-v2: era ${client.getProtocolEra()} at ${client.getNegotiatedProtocolVersion()}\n`);
await step("sdk-v2", "tools/list", () => client.listTools());
await step("sdk-v2", "echo", () => client.callTool({ name: "echo", arguments: ECHO }));
await step("sdk-v2", "place_order", () => client.callTool({ name: "place_order", arguments: ORDER }));
await client.close();
