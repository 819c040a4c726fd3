import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/**
 * mcp-remote (the stdio bridge Claude Desktop users run) against a Faultline MCP URL, driven by the official v1 SDK
 * client over stdio, as a desktop host would drive it.
 *
 *   const remote = await startMcpRemote(session.mcpUrl);                       // default: --protocol legacy
 *   const remote = await startMcpRemote(url, { args: ["--protocol", "auto"] }); // 2026-07-28 when the server offers it
 *   await remote.client.callTool({ name: "echo", arguments: { text: "hi" } });
 *   await remote.close();                                                    // ends mcp-remote, removes its directory
 *
 * Isolation: every instance gets its own temporary directory, used as MCP_REMOTE_CONFIG_DIR (where mcp-remote keeps
 * client registrations, tokens and its lock files; ~/.mcp-auth otherwise) and as HOME, so a test never reads or
 * writes the user's ~/.mcp-auth. The OAuth callback port (mcp-remote's second positional argument) is a free
 * ephemeral port rather than the one mcp-remote derives from the URL's hash. A preloaded module (LOOPBACK_ONLY) lets
 * mcp-remote resolve no host name but localhost, so it reaches nothing beyond loopback.
 *
 * The browser: for OAuth, mcp-remote opens the authorization URL with the `open` package, which on Linux runs its
 * bundled xdg-open; without DISPLAY, WAYLAND_DISPLAY or a desktop, xdg-open runs $BROWSER with the URL. The stand-in
 * set as $BROWSER here follows that URL with fetch, redirect by redirect (at most 10 hops), the way a browser would
 * when the authorization server approves at once, so the last redirect reaches mcp-remote's callback server
 * (http://localhost:<callbackPort>/oauth/callback?code=…&state=…; `--host` and `--callback-path` change it). It submits no forms: an authorization server under
 * test has to redirect back without a consent page, or the test approves by itself. `remote.visited()` lists the
 * URLs it fetched, in order, with their statuses.
 *
 * Node 22: mcp-remote runs on process.execPath, the Node that runs the tests (node_modules/.bin first on PATH).
 */

export const PROXY = fileURLToPath(new URL("../../node_modules/mcp-remote/dist/proxy.js", import.meta.url));
/** The stand-in browser (browse.mjs, shared with the scorecard): follows redirects from argv[2] (at most 10 hops) and appends "<status> <url>" per hop to argv[3]. */
const BROWSER = fileURLToPath(new URL("../../scorecard/clients/support/browser.mjs", import.meta.url));

/**
 * Preloaded into mcp-remote: host names other than localhost fail to resolve, so it reaches nothing beyond loopback.
 * (At start-up mcp-remote fetches the authorization server's metadata from the server named in the protected resource
 * metadata; Faultline names https://auth.faultline.invalid, whose look-up would otherwise go to the DNS server.)
 */
const LOOPBACK_ONLY = `
import dns from "node:dns";
import { isIP } from "node:net";
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  // localhost, and address literals (its OAuth callback server listens on one), never go to a DNS server.
  if (hostname === "localhost" || isIP(hostname) !== 0) return lookup.call(this, hostname, options, callback);
  const done = typeof options === "function" ? options : callback;
  const error = Object.assign(new Error("getaddrinfo ENOTFOUND " + hostname + " (loopback only in tests)"), { code: "ENOTFOUND", hostname });
  process.nextTick(done, error);
};
`;

export interface StandInBrowser {
  /** The executable to set as $BROWSER. */
  path: string;
  /** The URLs it fetched, as "<status> <url>", in order. */
  visited(): Promise<string[]>;
}

/** Writes the stand-in browser into `dir` (a shell script running BROWSER on this Node). */
export async function standInBrowser(dir: string): Promise<StandInBrowser> {
  const visits = join(dir, "browser.log");
  // xdg-open runs $BROWSER through the shell with the URL as its one argument.
  const path = join(dir, "browser.sh");
  await writeFile(path, `#!/bin/sh\nexec "${process.execPath}" "${BROWSER}" "$1" "${visits}"\n`);
  await chmod(path, 0o755);
  return { path, visited: async () => (await readFile(visits, "utf8").catch(() => "")).split("\n").filter((line) => line !== "") };
}

export interface McpRemote {
  client: Client;
  /** Everything mcp-remote wrote to stderr so far (its log). */
  stderr(): string;
  /** The URLs the stand-in browser fetched, as "<status> <url>", in order. */
  visited(): Promise<string[]>;
  /** Closes the client (which ends mcp-remote) and removes the temporary directory. */
  close(): Promise<void>;
}

export interface McpRemoteOptions {
  /** Extra mcp-remote arguments after the URL and the callback port, e.g. ["--protocol", "auto"]. */
  args?: string[];
  /** The host's clientInfo name (mcp-remote forwards it with " (via mcp-remote 0.15.1)" appended). */
  clientName?: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startMcpRemote(mcpUrl: string, options: McpRemoteOptions = {}): Promise<McpRemote> {
  const dir = await mkdtemp(join(tmpdir(), "faultline-mcp-remote-"));
  const browser = await standInBrowser(dir);
  const loopbackOnly = join(dir, "loopback-only.mjs");
  await writeFile(loopbackOnly, LOOPBACK_ONLY);
  const callbackPort = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", pathToFileURL(loopbackOnly).href, PROXY, mcpUrl, String(callbackPort), ...(options.args ?? [])],
    // Only these: no DISPLAY or desktop variables, so xdg-open falls through to $BROWSER.
    env: { PATH: process.env.PATH ?? "", HOME: dir, MCP_REMOTE_CONFIG_DIR: dir, BROWSER: browser.path },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: options.clientName ?? "faultline-host", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`mcp-remote did not connect: ${(error as Error).message}\n--- its log ---\n${log}`);
  }
  return {
    client,
    stderr: () => log,
    visited: browser.visited,
    close: async () => {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
