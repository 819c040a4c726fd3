// mcp-remote 0.15.1 (the stdio bridge desktop hosts run) driven through a stdio host: the official SDK v1 Client over
// StdioClientTransport stands in for the desktop app. Eras: legacy (the default, --protocol legacy) and modern
// (--protocol auto). It gets a temporary HOME and MCP_REMOTE_CONFIG_DIR of its own, resolves no host but localhost,
// and for OAuth opens a stand-in browser ($BROWSER) that follows the authorization server's redirects.
import { rmSync } from "node:fs";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connect, ECHO, era, MCP_URL, ORDER, step } from "./common.mjs";

const chosen = era(["legacy", "modern"]);
const proxy = join(createRequire(import.meta.url).resolve("mcp-remote/package.json"), "..", "dist", "proxy.js");
const support = (name) => fileURLToPath(new URL(`support/${name}`, import.meta.url));
const dir = await mkdtemp(join(tmpdir(), "scorecard-mcp-remote-"));
const browser = join(dir, "browser.sh");
await writeFile(browser, `#!/bin/sh\nexec "${process.execPath}" "${support("browser.mjs")}" "$1" "${join(dir, "browser.log")}"\n`);
await chmod(browser, 0o755);
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ["--import", pathToFileURL(support("loopback-only.mjs")).href, proxy, MCP_URL, String(port), "--protocol", chosen === "modern" ? "auto" : "legacy"],
  // No DISPLAY or desktop variables, so xdg-open falls through to $BROWSER.
  env: { PATH: process.env.PATH ?? "", HOME: dir, MCP_REMOTE_CONFIG_DIR: dir, BROWSER: browser },
  stderr: "inherit",
});
const client = new Client({ name: "scorecard-host", version: "0.0.0" });
// The temporary folder goes whatever happens: connect() ends the process on a failure, so it is removed on exit too.
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
await connect("mcp-remote", () => client.connect(transport));
await step("mcp-remote", "tools/list", () => client.listTools());
await step("mcp-remote", "echo", () => client.callTool({ name: "echo", arguments: ECHO }));
await step("mcp-remote", "place_order", () => client.callTool({ name: "place_order", arguments: ORDER }));
await client.close();
