/**
 * `npm run serve`: builds the production bundle (what `wrangler deploy` uploads) and serves it with workerd directly,
 * without wrangler dev's proxy, watcher or banner. Configuration: HOST, PORT, FAULTLINE_STATE_DIR,
 * FAULTLINE_PUBLIC_URL, and any of wrangler.toml's [vars] by name. See docs/serving.md.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { weakToken } from "../src/access/token-rules.ts";
import { ownerOnlyState, pipeRedacted } from "./server-hygiene.ts";
import { baseUrl, loadProject, readyLine, refusedHost } from "./settings.ts";
import { workerdConfig } from "./workerd-config.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where `npm run serve` builds: one folder per run (its pid), so that two runs at once never delete each other's. */
export const SERVE_DIR = join(ROOT, ".wrangler", "serve");
const OUT_DIR = join(SERVE_DIR, String(process.pid));
/** After SIGTERM or SIGINT, how long workerd may drain before it is killed (the promise is "within 10 s"). */
const DRAIN_MS = 8_000;

const require = createRequire(import.meta.url);

function fail(message: string, name = "npm run serve"): never {
  console.error(`${name}: ${message}`);
  process.exit(1);
}

/**
 * `wrangler deploy --dry-run --outdir`: the exact bundle a deploy would upload, built without contacting Cloudflare.
 * Returns the module files, the entry first. Exported for `npm pack`, which builds it into the package.
 */
export async function build(outDir = OUT_DIR): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  const wrangler = join(require.resolve("wrangler/package.json"), "..", "bin", "wrangler.js");
  const child = spawn(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outDir], {
    cwd: ROOT,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) fail(`building the bundle failed (wrangler deploy --dry-run exited with ${code}):\n${log}`);
  const files = (await readdir(outDir)).filter((f) => !f.endsWith(".map") && f !== "README.md");
  // wrangler names the entry module after wrangler.toml's main (src/worker.ts → worker.js); workerd takes the first
  // module as the entry.
  const main = /^main\s*=\s*"([^"]+)"/m.exec(await readFile(join(ROOT, "wrangler.toml"), "utf8"))?.[1];
  const entry = `${basename(main ?? "index.ts").replace(/\.[cm]?[jt]sx?$/, "")}.js`;
  if (!files.includes(entry)) fail(`the bundle has no ${entry} (wrangler.toml main = ${main ?? "unset"}); it has ${files.join(", ")}`);
  return [entry, ...files.filter((f) => f !== entry)];
}

/** Whether a process of this pid is running (a signal 0 probe). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes what SERVE_DIR holds of runs that have ended (and the single folder of the layout before per-run ones). */
async function pruneEndedRuns(): Promise<void> {
  const names = await readdir(SERVE_DIR).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(name);
    if (!(Number.isInteger(pid) && pid > 0 && running(pid))) await rm(join(SERVE_DIR, name), { recursive: true, force: true });
  }
}

/** The folder of the newest run's bundle and config, for a bench that serves the same bundle itself; undefined before any. */
export async function lastServeBundle(): Promise<string | undefined> {
  const names = await readdir(SERVE_DIR).catch(() => [] as string[]);
  let newest: { dir: string; at: number } | undefined;
  for (const name of names) {
    const dir = join(SERVE_DIR, name);
    const at = await stat(join(dir, "config.capnp")).then((s) => s.mtimeMs, () => undefined);
    if (at !== undefined && (newest === undefined || at > newest.at)) newest = { dir, at };
  }
  return newest?.dir;
}

async function main() {
  let project;
  try {
    project = loadProject(ROOT, process.env);
  } catch (error) {
    fail((error as Error).message);
  }
  const { settings, secrets } = project;
  const refused = refusedHost(settings.host, secrets) ?? weakToken(secrets);
  if (refused) fail(refused);
  ownerOnlyState(settings.stateDir);
  await pruneEndedRuns();
  await serveBundle("npm run serve", OUT_DIR, project, await build());
}

/**
 * Serves the bundle in `outDir` (its `modules`, the entry first) with workerd until SIGTERM or SIGINT, then exits the
 * process. `name` is what the ready line and the errors say; `faultline start` (src/cli/start-command.ts) uses it too.
 */
export async function serveBundle(name: string, outDir: string, project: ReturnType<typeof loadProject>, modules: string[]): Promise<void> {
  const { wrangler, vars, settings, secrets } = project;
  const durableObjectDir = join(settings.stateDir, "v3", "do");
  await mkdir(durableObjectDir, { recursive: true });
  const configPath = join(outDir, "config.capnp");
  await writeFile(
    configPath,
    workerdConfig({
      modules,
      compatibilityDate: wrangler.compatibility_date ?? fail("wrangler.toml has no compatibility_date", name),
      compatibilityFlags: wrangler.compatibility_flags,
      vars: { ...vars, ...secrets },
      durableObjects: wrangler.durable_objects.bindings.map((b: { name: string; class_name: string }) => ({ binding: b.name, className: b.class_name })),
      workerName: wrangler.name ?? fail("wrangler.toml has no name", name),
      durableObjectDir,
      address: `${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${settings.port}`,
    }),
    // The config holds the secrets as text bindings: readable by this user only.
    { mode: 0o600 },
  );

  const workerd = (require("workerd") as { default: string }).default;
  // fd 3 is workerd's control channel: one JSON line per socket once it listens, with the port actually bound.
  const child = spawn(workerd, ["serve", configPath, "config", "--control-fd=3"], { cwd: outDir, stdio: ["ignore", "pipe", "pipe", "pipe"] });
  // What workerd prints (the Worker's own errors among it) may hold a request's path, and so a capability secret.
  void pipeRedacted(child.stdout!, process.stdout);
  void pipeRedacted(child.stderr!, process.stderr);
  createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on("line", async (line) => {
    const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
    if (message.event === "listen" && message.socket === "http" && message.port !== undefined) {
      console.log(await readyLine(`${name}, state in ${settings.stateDir}`, baseUrl(settings, message.port), secrets));
    }
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // workerd drains on SIGTERM: it stops accepting connections and lets the requests in flight finish.
    child.kill("SIGTERM");
    setTimeout(() => {
      console.error(`${name}: workerd still running ${DRAIN_MS} ms after ${signal}; killing it`);
      child.kill("SIGKILL");
    }, DRAIN_MS).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  child.once("exit", (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
}

// Run as `node scripts/serve.ts` only: imported (by the CLI, or bundled into dist/faultline.mjs) it only exports.
if (import.meta.url.endsWith("/scripts/serve.ts") && import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
