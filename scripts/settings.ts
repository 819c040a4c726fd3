/** The environment `npm start` and `npm run serve` read, and the one line both print once the server answers. */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { unstable_readConfig } from "wrangler";
import { isLoopback } from "../src/base/allowlist.ts";
import { mcpPath } from "../src/base/capability-url.ts";

export interface Settings {
  host: string;
  port: number;
  /** Absolute path of the state folder (Durable Object storage lives in `<stateDir>/v3/do`). */
  stateDir: string;
  /** FAULTLINE_PUBLIC_URL without its trailing slash, when set. */
  publicUrl: string | undefined;
}

/** Reads HOST, PORT, FAULTLINE_STATE_DIR and FAULTLINE_PUBLIC_URL; throws a message naming the variable and the rule. */
export function readSettings(env: NodeJS.ProcessEnv, root: string): Settings {
  const host = env.HOST || "127.0.0.1";
  const portText = env.PORT || "8787";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new Error(`PORT must be a whole number from 0 to 65535, got '${portText}'`);
  return { host, port, stateDir: resolve(root, env.FAULTLINE_STATE_DIR || ".wrangler/state"), publicUrl: publicUrlOf(env.FAULTLINE_PUBLIC_URL) };
}

/** Same rule as the Worker's src/public-origin.ts: an http(s) origin, nothing after it but an optional "/". */
function publicUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`FAULTLINE_PUBLIC_URL must be an absolute URL such as https://faultline.example.com, got '${value}'`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new Error(`FAULTLINE_PUBLIC_URL must be an http(s) origin without path, query or credentials, got '${value}'`);
  }
  return url.origin;
}

/** The base URL to print: the public URL when set, else the address listened on (a wildcard address shown as loopback). */
export function baseUrl(settings: Pick<Settings, "host" | "publicUrl">, port: number): string {
  if (settings.publicUrl) return settings.publicUrl;
  const host = settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host === "::" ? "[::1]" : settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return `http://${host}:${port}`;
}

/**
 * The start-up line: where the dashboard and the default session's MCP endpoint are. With FAULTLINE_ADMIN_TOKEN set
 * that endpoint is the default session's capability URL (plain /mcp is then refused), so this line is where it is found.
 */
export async function readyLine(what: string, base: string, secrets: Secrets = {}): Promise<string> {
  const mcp = secrets.FAULTLINE_ADMIN_TOKEN ? await mcpPath(secrets, "default") : "/mcp";
  return `Faultline (${what}) is ready. Dashboard: ${base}/  MCP endpoint: ${base}${mcp}`;
}

/** The secrets the Worker reads besides wrangler.toml's [vars] (wrangler secrets when deployed). */
export const SECRET_NAMES = ["FAULTLINE_ADMIN_TOKEN", "FAULTLINE_VIEWER_TOKEN", "FAULTLINE_URL_KEY"] as const;
export type Secrets = Partial<Record<(typeof SECRET_NAMES)[number], string>>;

/** Each secret from the environment, else from `.dev.vars` (the file wrangler dev reads); unset ones are left out. */
export function readSecrets(root: string, env: NodeJS.ProcessEnv): Secrets {
  const file = join(root, ".dev.vars");
  const devVars = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  const secrets: Secrets = {};
  for (const name of SECRET_NAMES) {
    const value = env[name] || devVars[name];
    if (value) secrets[name] = value;
  }
  return secrets;
}

/**
 * Why the server must not start, or undefined: an address beyond loopback without FAULTLINE_ADMIN_TOKEN would give
 * everyone who reaches it the API (every session, every journal), the dashboard and every MCP endpoint.
 */
export function refusedHost(host: string, secrets: Secrets): string | undefined {
  const name = host.replace(/^\[(.*)\]$/, "$1");
  if (secrets.FAULTLINE_ADMIN_TOKEN || isLoopback(name) || /^127\.\d+\.\d+\.\d+$/.test(name)) return undefined;
  return `HOST=${host} listens beyond loopback: set FAULTLINE_ADMIN_TOKEN (see docs/security.md), or use HOST=127.0.0.1`;
}

/**
 * wrangler.toml with the environment applied: its [vars], each overridden by an environment variable of the same name,
 * and the settings above. Throws a message naming the variable and the rule.
 */
export function loadProject(root: string, env: NodeJS.ProcessEnv) {
  const wrangler = unstable_readConfig({ config: join(root, "wrangler.toml") }, { hideWarnings: true });
  const vars = Object.fromEntries(Object.entries(wrangler.vars).map(([name, value]) => [name, env[name] ?? String(value)]));
  const settings = readSettings({ ...env, FAULTLINE_PUBLIC_URL: vars.FAULTLINE_PUBLIC_URL }, root);
  vars.FAULTLINE_PUBLIC_URL = settings.publicUrl ?? "";
  return { wrangler, vars, settings, secrets: readSecrets(root, env) };
}
