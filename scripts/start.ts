/**
 * `npm start`: wrangler dev (with its watcher and reload) on HOST:PORT, storing Durable Objects in FAULTLINE_STATE_DIR,
 * and one line once it answers with the dashboard URL and the /mcp URL. wrangler.toml's [vars] can be overridden by
 * environment variables of the same name, as under `npm run serve`. wrangler's output (its request log among it) is
 * passed on with capability secrets redacted, and the state folder is created readable by its owner only.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { weakToken } from "../src/access/token-rules.ts";
import { ownerOnlyState, pipeRedacted } from "./server-hygiene.ts";
import { baseUrl, loadProject, readyLine, refusedHost } from "./settings.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

let project;
try {
  project = loadProject(ROOT, process.env);
} catch (error) {
  console.error(`npm start: ${(error as Error).message}`);
  process.exit(1);
}
const { settings, vars, secrets } = project;
const refused = refusedHost(settings.host, secrets) ?? weakToken(secrets);
if (refused) {
  console.error(`npm start: ${refused}`);
  process.exit(1);
}
ownerOnlyState(settings.stateDir);
// Only the vars and secrets the environment sets: wrangler dev reads the rest from wrangler.toml and .dev.vars itself,
// and shows --var values as hidden.
const overrides = Object.entries({ ...vars, ...secrets }).flatMap(([name, value]) => (process.env[name] === undefined ? [] : ["--var", `${name}:${value}`]));
const wrangler = join(require.resolve("wrangler/package.json"), "..", "bin", "wrangler.js");
const child = spawn(
  process.execPath,
  [wrangler, "dev", "--ip", settings.host, "--port", String(settings.port), "--persist-to", settings.stateDir, ...overrides],
  {
    cwd: ROOT,
    // Piped, wrangler would drop its colours: keep them when this process prints to a terminal.
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
    stdio: ["inherit", "pipe", "pipe"],
  },
);
// wrangler logs every request's path, and a capability URL's path holds its secret.
void pipeRedacted(child.stdout!, process.stdout);
void pipeRedacted(child.stderr!, process.stderr);

// Signals go to wrangler, which stops its workerd; this process ends when wrangler does.
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => child.kill(signal));
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// wrangler prints its own "Ready on" line; this one adds where the dashboard and the MCP endpoint are.
const local = baseUrl({ host: settings.host, publicUrl: undefined }, settings.port);
for (;;) {
  const up = await fetch(`${local}/health`).then((res) => res.ok, () => false);
  if (up) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.log(await readyLine(`npm start, state in ${settings.stateDir}`, baseUrl(settings, settings.port), secrets));
