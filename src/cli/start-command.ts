import { copyFile, mkdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { serveBundle } from "../../scripts/serve.ts";
import { ownerOnlyState } from "../../scripts/server-hygiene.ts";
import { weakToken } from "../access/token-rules.ts";
import { loadProject, refusedHost } from "../../scripts/settings.ts";
import { EXIT, systemReason, UsageError } from "./errors.ts";
import { packageRoot } from "./package-root.ts";

export const START_USAGE = `Usage: faultline start   (alias: faultline serve)

Serves Faultline's production bundle (built when the package was packed) with workerd,
as 'npm run serve' does in a checkout, until SIGTERM or Ctrl-C. One line says when it
is ready, with the dashboard's URL and the MCP endpoint's.

Environment (as for 'npm run serve', see docs/serving.md):
  HOST                   the address to listen on (default 127.0.0.1; beyond loopback
                         only with FAULTLINE_ADMIN_TOKEN set)
  PORT                   the port (default 8787; 0 picks a free one)
  FAULTLINE_STATE_DIR    where sessions are stored (default $XDG_STATE_HOME/faultline,
                         else ~/.local/state/faultline)
  FAULTLINE_PUBLIC_URL, FAULTLINE_ADMIN_TOKEN, FAULTLINE_VIEWER_TOKEN, FAULTLINE_URL_KEY,
  and each of wrangler.toml's [vars] by name
`;

/** The per-user state folder (XDG Base Directory: $XDG_STATE_HOME, which must be absolute, else ~/.local/state). */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), ".local", "state");
  return join(base, "faultline");
}

/** `faultline start`: runs until a signal; serveBundle ends the process when workerd has stopped. */
export async function startCommand(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(START_USAGE);
    return EXIT.ok;
  }
  if (args.length > 0) throw new UsageError(`unexpected arguments: ${args.join(" ")} (faultline start is set up by environment variables)`, { suggestHelp: true });
  const root = packageRoot();
  if (root === undefined) throw new UsageError("this copy of the CLI has no package around it: install the package (npm pack), or use npm run serve in a checkout");
  const bundleDir = join(root, "dist", "worker");
  let modules: string[];
  try {
    modules = (JSON.parse(await readFile(join(bundleDir, "serve.json"), "utf8")) as { modules: string[] }).modules;
  } catch (error) {
    throw new UsageError(`no server bundle in ${bundleDir} (${systemReason(error)}): it is built by npm pack (or npm run build:package)`);
  }
  // A relative FAULTLINE_STATE_DIR means the current folder's, as a user expects of a command (npm run serve takes
  // it from the checkout, its own current folder).
  const env = { ...process.env, FAULTLINE_STATE_DIR: resolve(process.env.FAULTLINE_STATE_DIR || defaultStateDir()) };
  let project;
  try {
    project = loadProject(root, env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const refused = refusedHost(project.settings.host, project.secrets) ?? weakToken(project.secrets);
  if (refused) throw new UsageError(refused);
  ownerOnlyState(project.settings.stateDir);
  // workerd embeds the modules from beside its config, which holds the secrets: both go to the user's state folder,
  // never into the (maybe shared, maybe read-only) installed package.
  const runDir = join(project.settings.stateDir, "server");
  await mkdir(runDir, { recursive: true, mode: 0o700 });
  for (const file of modules) await copyFile(join(bundleDir, file), join(runDir, file));
  await serveBundle("faultline start", runDir, project, modules);
  return new Promise<number>(() => {});
}
