/**
 * A sessionful 2025-11-25 upstream for proxy-mode tests: the v1 SDK server (@modelcontextprotocol/sdk 1.32.2, up to
 * 2025-11-25) with one Streamable HTTP transport per MCP session, so it issues Mcp-Session-Id on initialize, requires
 * it afterwards and ends the session on DELETE. The v2 upstream (test/helpers/upstream.ts) serves 2025 statelessly,
 * without session ids. Tools: `lookup` (read-only), counted like the v2 upstream's.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import type { Upstream } from "./upstream.ts";

export interface SessionfulUpstream extends Upstream {
  /** Mcp-Session-Id values issued, in order. */
  issued: string[];
  /** Mcp-Session-Id values ended by DELETE. */
  ended: string[];
}

export async function startSessionfulUpstream(): Promise<SessionfulUpstream> {
  const calls: Record<string, number> = {};
  const requests: IncomingHttpHeaders[] = [];
  const issued: string[] = [];
  const ended: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const mcpServer = () => {
    const server = new McpServer({ name: "proxy-test-upstream-v1", version: "1.0.0" });
    server.registerTool("lookup", { description: "Looks up a record by key", inputSchema: { key: z.string() }, annotations: { readOnlyHint: true } }, async ({ key }) => {
      calls.lookup = (calls.lookup ?? 0) + 1;
      return { content: [{ type: "text", text: `record ${key}` }] };
    });
    return server;
  };

  const http = createServer(async (req, res) => {
    requests.push(req.headers);
    const id = req.headers["mcp-session-id"];
    const existing = typeof id === "string" ? transports.get(id) : undefined;
    if (existing) {
      if (req.method === "DELETE") ended.push(id as string);
      await existing.handleRequest(req, res);
      return;
    }
    if (req.method !== "POST" || id !== undefined) {
      res.writeHead(id === undefined ? 400 : 404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "No such session" } }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        issued.push(sessionId);
        transports.set(sessionId, transport);
      },
    });
    await mcpServer().connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    requests,
    issued,
    ended,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
