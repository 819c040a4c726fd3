/**
 * The official SDK's reference server for `npm run bench`, as issue 12 names it: the v2 server package
 * (@modelcontextprotocol/server 2.4.0, `createMcpHandler`) behind its Node adapter (@modelcontextprotocol/node 2.1.2),
 * serving the same `echo` tool over Streamable HTTP on 127.0.0.1 and an ephemeral port (printed as `{"port":N}` on
 * stdout). It answers 2026-07-28 natively and stateless, with a server per request as `createMcpHandler` does; the
 * bench sends it the same 2026-07-28 `tools/call` it sends Faultline, and a stateless 2025-11-25 one (which it answers
 * as an SSE event) to compare with Faultline's 2025-11-25 session.
 */
import { createServer } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { z } from "zod";

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: "bench-sdk-reference", version: "0.0.0" });
    server.registerTool("echo", { description: "Echoes text back", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    return server;
  },
  { keepAliveMs: 0 },
);
const node = toNodeHandler(handler);
const http = createServer((req, res) => {
  if (req.url !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  void node(req, res);
});
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.on("SIGTERM", () => http.close(() => process.exit(0)));
