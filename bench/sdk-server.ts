/**
 * The official SDK's reference server for `npm run bench`: the same `echo` tool over Streamable HTTP on Node, listening
 * on 127.0.0.1 and an ephemeral port (printed as `{"port":N}` on stdout). The SDK v2 server package
 * (@modelcontextprotocol/server) is not installed; this is the v1 package installed here, @modelcontextprotocol/sdk, in
 * its stateless mode (no session id, JSON responses), with a server and transport per request as its docs prescribe.
 * It speaks up to 2025-11-25, so the bench calls it with that version and no initialize (stateless servers accept that).
 */
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function mcpServer(): McpServer {
  const server = new McpServer({ name: "bench-sdk-reference", version: "0.0.0" });
  server.registerTool("echo", { description: "Echoes text back", inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

const http = createServer(async (req, res) => {
  if (req.method !== "POST" || req.url !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString("utf8")));
});
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.on("SIGTERM", () => http.close(() => process.exit(0)));
