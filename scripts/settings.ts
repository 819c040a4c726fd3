/** The environment `npm start` and `npm run serve` read, and the one line both print once the server answers. */
import { join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";

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

/** The start-up line: where the dashboard and the default session's MCP endpoint are. */
export function readyLine(what: string, base: string): string {
  return `Faultline (${what}) is ready. Dashboard: ${base}/  MCP endpoint: ${base}/mcp`;
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
  return { wrangler, vars, settings };
}
