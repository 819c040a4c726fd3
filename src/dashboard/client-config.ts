/** Copy-paste configurations that point common MCP clients at a session. Pure string building. */
export interface ClientConfig {
  id: string;
  label: string;
  /** Where the snippet goes, for people. */
  where: string;
  code: string;
}

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

/** Quotes one shell word with single quotes, so a strange host name cannot break out of it. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A JSON-safe server name for config files: faultline-{id}. */
export function serverName(sessionId: string): string {
  return `faultline-${sessionId}`.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 64);
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
  } catch {
    return false;
  }
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function curlCommand(url: string, headers: readonly string[], body: unknown): string {
  return [`curl -si ${shellQuote(url)}`, ...headers.map((h) => `-H ${shellQuote(h)}`), `-d ${shellQuote(JSON.stringify(body))}`].join(" \\\n  ");
}

/** Every configuration the session page offers, in tab order. */
export function clientConfigs(mcpUrl: string, sessionId: string, origin: string): ClientConfig[] {
  const name = serverName(sessionId);
  // mcp-remote refuses plain http:// except to localhost unless told otherwise.
  const bridgeArgs = ["-y", "mcp-remote", mcpUrl, ...(mcpUrl.startsWith("http://") && !isLoopback(mcpUrl) ? ["--allow-http"] : [])];
  const accept = ["Content-Type: application/json", "Accept: application/json, text/event-stream"];
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1.0.0" },
  };
  const initialize = curlCommand(mcpUrl, accept, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "curl", version: "1.0.0" } },
  });
  const toolsCall = curlCommand(mcpUrl, [...accept, `MCP-Protocol-Version: ${MODERN}`, "Mcp-Method: tools/call", "Mcp-Name: echo"], {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hello" }, _meta: meta },
  });

  return [
    {
      id: "claude",
      label: "Claude Desktop",
      where: "claude_desktop_config.json: Claude Desktop speaks stdio, so mcp-remote bridges it to this URL. Restart Claude afterwards.",
      code: json({ mcpServers: { [name]: { command: "npx", args: bridgeArgs } } }),
    },
    {
      id: "cursor",
      label: "Cursor",
      where: ".cursor/mcp.json in your project (or ~/.cursor/mcp.json)",
      code: json({ mcpServers: { [name]: { url: mcpUrl } } }),
    },
    {
      id: "vscode",
      label: "VS Code",
      where: ".vscode/mcp.json in your workspace",
      code: json({ servers: { [name]: { type: "http", url: mcpUrl } } }),
    },
    {
      id: "curl",
      label: "curl",
      where: `${LEGACY} initialize (stateful), then a ${MODERN} tools/call (stateless, no initialize); pipe any curl -si into /classify for a verdict`,
      code: [
        `# ${LEGACY}: initialize; the answer carries the Mcp-Session-Id to send next`,
        initialize,
        "",
        `# ${MODERN}: a stateless tools/call with the required headers and _meta`,
        toolsCall,
        "",
        "# Classify what came back",
        `${toolsCall} \\\n  | curl -s ${shellQuote(`${origin}/classify`)} -H 'Content-Type: message/http' --data-binary @-`,
      ].join("\n"),
    },
    {
      id: "sdk",
      label: "TypeScript SDK",
      where: "npm i @modelcontextprotocol/client (v2); ES module, top-level await",
      code: [
        `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";`,
        ``,
        `const client = new Client({ name: "my-agent", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });`,
        `await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(mcpUrl)})));`,
        `console.log("era:", client.getProtocolEra());`,
        ``,
        `// A non-2xx answer (503, 429, ...) throws SdkHttpError: the SDK does not retry, that is up to you.`,
        `const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });`,
        `console.log(result.isError ? "tool error:" : "ok:", result.content);`,
        `await client.close();`,
      ].join("\n"),
    },
  ];
}
