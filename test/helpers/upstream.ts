/**
 * A real MCP server for proxy-mode tests: the official v2 server package (@modelcontextprotocol/server 2.4.0) behind
 * its Node adapter (@modelcontextprotocol/node 2.1.2), on 127.0.0.1 and an ephemeral port. Its `createMcpHandler`
 * serves 2026-07-28 natively and 2025-11-25 / 2025-06-18 through the SDK's stateless legacy fallback (no
 * Mcp-Session-Id), from one tool definition, so one upstream speaks both eras.
 *
 * Tools: `lookup` (read-only, idempotent), `charge` (destructive, not idempotent) and `report` (read-only; sends
 * `steps` log notifications before its result, so its answer is an SSE stream). Every call is counted per tool, so a
 * test can assert that a call reached the upstream exactly once; every request's headers are kept too.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { z } from "zod";

export interface Upstream {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  /** tools/call count per tool name. */
  calls: Record<string, number>;
  /** Headers of every HTTP request received, in order. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export const UPSTREAM_TOOLS = {
  lookup: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  charge: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
  report: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
} as const;

/** `unannotated`: also serve `notify`, a tool that declares no annotations (as most real servers' tools do). */
export async function startUpstream(options: { responseMode?: "auto" | "sse" | "json"; port?: number; unannotated?: boolean } = {}): Promise<Upstream> {
  const calls: Record<string, number> = {};
  const requests: IncomingHttpHeaders[] = [];
  const counted = (name: string) => (calls[name] = (calls[name] ?? 0) + 1);

  const factory = () => {
    const server = new McpServer({ name: "proxy-test-upstream", version: "1.0.0" }, { capabilities: { logging: {} } });
    server.registerTool(
      "lookup",
      { description: "Looks up a record by key", inputSchema: z.object({ key: z.string() }), annotations: UPSTREAM_TOOLS.lookup },
      async ({ key }) => {
        counted("lookup");
        return { content: [{ type: "text", text: `record ${key}` }] };
      },
    );
    server.registerTool(
      "charge",
      { description: "Charges an amount to a card", inputSchema: z.object({ cents: z.number().int() }), annotations: UPSTREAM_TOOLS.charge },
      async ({ cents }) => {
        const n = counted("charge");
        return { content: [{ type: "text", text: `charged ${cents} (charge #${n})` }] };
      },
    );
    server.registerTool(
      "report",
      { description: "Reports progress in steps, then the total", inputSchema: z.object({ steps: z.number().int().min(0).max(20) }), annotations: UPSTREAM_TOOLS.report },
      async ({ steps }, ctx) => {
        counted("report");
        for (let i = 1; i <= steps; i++) {
          await ctx.mcpReq.notify({ method: "notifications/message", params: { level: "info", data: `step ${i} of ${steps}` } });
        }
        return { content: [{ type: "text", text: `${steps} steps done` }] };
      },
    );
    if (options.unannotated) {
      server.registerTool("notify", { description: "Sends a notice", inputSchema: z.object({ to: z.string() }) }, async ({ to }) => {
        const n = counted("notify");
        return { content: [{ type: "text", text: `notified ${to} (notice #${n})` }] };
      });
    }
    return server;
  };

  const handler = createMcpHandler(factory, { responseMode: options.responseMode ?? "auto", keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    requests.push(req.headers);
    void node(req, res);
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    requests,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
