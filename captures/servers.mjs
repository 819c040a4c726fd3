// The real servers the capture tool talks to, each with the same three tools: echo (text back), fail (a tool error)
// and, where the stack can send server-to-client requests, confirm (asks the client through elicitation/create).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { FastMCP } from "fastmcp";
import { z } from "zod";

const CONFIRM = { method: "elicitation/create", params: { message: "Proceed?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } };

function listen(handler) {
  const http = createServer(handler);
  return new Promise((resolve) =>
    http.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${http.address().port}/mcp`, close: () => new Promise((r) => { http.closeAllConnections(); http.close(() => r()); }) })),
  );
}

function v1Server() {
  const server = new McpServerV1({ name: "capture-v1", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes text", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("fail", { description: "Always fails", inputSchema: {} }, async () => ({ content: [{ type: "text", text: "Payment declined" }], isError: true }));
  server.registerTool("confirm", { description: "Asks the user", inputSchema: {} }, async (_args, extra) => {
    const answer = await extra.sendRequest(CONFIRM, ElicitResultSchema);
    return { content: [{ type: "text", text: answer.action }] };
  });
  return server;
}

/** The SDK v1 server as its examples run it: one transport per session, 400 for a missing session, 404 for an unknown one. */
function v1Stateful(enableJsonResponse) {
  return () => {
    const transports = new Map();
    return listen(async (req, res) => {
      const id = req.headers["mcp-session-id"];
      const existing = typeof id === "string" ? transports.get(id) : undefined;
      if (existing) return existing.handleRequest(req, res);
      if (req.method !== "POST" || id !== undefined) {
        // The SDK's own example (simpleStreamableHttp.ts) answers an unknown session this way: 400, not 404.
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse, onsessioninitialized: (sid) => transports.set(sid, transport) });
      await v1Server().connect(transport);
      await transport.handleRequest(req, res);
    });
  };
}

/** The SDK v1 server stateless: a new server and transport per request, no session id. */
function v1Stateless(enableJsonResponse) {
  return () =>
    listen(async (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
      const server = v1Server();
      res.on("close", () => { void transport.close(); void server.close(); });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
}

/** The SDK v2 server: 2026-07-28 natively, 2025-11-25 through its stateless legacy fallback. */
async function v2() {
  const factory = () => {
    const server = new McpServer({ name: "capture-v2", version: "1.0.0" });
    server.registerTool("echo", { description: "Echoes text", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    server.registerTool("fail", { description: "Always fails", inputSchema: z.object({}) }, async () => ({ content: [{ type: "text", text: "Payment declined" }], isError: true }));
    return server;
  };
  const node = toNodeHandler(createMcpHandler(factory, { responseMode: "auto", keepAliveMs: 0 }));
  return listen((req, res) => void node(req, res));
}

async function fastmcp() {
  const server = new FastMCP({ name: "capture-fastmcp", version: "1.0.0" });
  server.addTool({ name: "echo", description: "Echoes text", parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
  server.addTool({ name: "fail", description: "Always fails", parameters: z.object({}), execute: async () => ({ content: [{ type: "text", text: "Payment declined" }], isError: true }) });
  server.addTool({ name: "confirm", description: "Asks the user", parameters: z.object({}), execute: async (_args, ctx) => {
    const answer = await ctx.session?.elicit?.(CONFIRM.params);
    return String(answer?.action);
  } });
  const probe = await listen(() => {});
  const port = Number(new URL(probe.url).port);
  await probe.close();
  await server.start({ transportType: "httpStream", httpStream: { port, host: "127.0.0.1", endpoint: "/mcp" } });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.stop() };
}

export const STACKS = [
  { id: "sdk-v2", label: "@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2 (createMcpHandler)", start: v2, eras: ["modern", "legacy"] },
  { id: "sdk-v1-stateful-sse", label: "@modelcontextprotocol/sdk 1.32.2, stateful, SSE responses", start: v1Stateful(false), eras: ["legacy-stateful"] },
  { id: "sdk-v1-stateful-json", label: "@modelcontextprotocol/sdk 1.32.2, stateful, JSON responses", start: v1Stateful(true), eras: ["legacy-stateful"] },
  { id: "sdk-v1-stateless-sse", label: "@modelcontextprotocol/sdk 1.32.2, stateless, SSE responses", start: v1Stateless(false), eras: ["legacy"] },
  { id: "sdk-v1-stateless-json", label: "@modelcontextprotocol/sdk 1.32.2, stateless, JSON responses", start: v1Stateless(true), eras: ["legacy"] },
  { id: "fastmcp", label: "fastmcp 4.20.16 (httpStream, stateful)", start: fastmcp, eras: ["legacy-stateful"] },
];
