// Builds everything the npm package ships into dist/ (`npm run build:package`; npm pack runs it as `prepack`):
// the CLI, the `faultline/testing` library with its types, the server bundle for `faultline start`, and the JSON
// Schema of faultline.json.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { unstable_readConfig } from "wrangler";
import { z } from "zod";
import { build as buildBundle } from "../scripts/serve.ts";
import { RunConfigSchema } from "../src/cli/run-config.ts";
import { buildCli, NODE_BUNDLE } from "./build-cli.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");

/** tsc writes the library's declarations (and those of what it imports) under dist/types/, as the exports map says. */
async function declarations(): Promise<void> {
  await rm(join(DIST, "types"), { recursive: true, force: true });
  const tsc = join(ROOT, "node_modules", ".bin", "tsc");
  const args = ["-p", join(ROOT, "bin", "tsconfig.testing.json")];
  const code = await new Promise<number | null>((resolve) => spawn(tsc, args, { stdio: "inherit" }).once("exit", resolve));
  if (code !== 0) throw new Error(`tsc ${args.join(" ")} exited with ${code}`);
}

export async function buildPackage(): Promise<void> {
  await mkdir(DIST, { recursive: true });
  await buildCli(join(DIST, "faultline.mjs"));
  await build({ ...NODE_BUNDLE, entryPoints: [join(ROOT, "src", "testing", "index.ts")], outfile: join(DIST, "testing.mjs") });
  await declarations();
  const workerDir = join(DIST, "worker");
  const modules = await buildBundle(workerDir);
  // What `faultline start` needs of wrangler.toml, read now: the installed package runs without wrangler.
  const { name, compatibility_date, compatibility_flags, vars, durable_objects } = unstable_readConfig({ config: join(ROOT, "wrangler.toml") }, { hideWarnings: true });
  const config = { name, compatibility_date, compatibility_flags, vars, durable_objects: { bindings: durable_objects.bindings } };
  await writeFile(join(workerDir, "serve.json"), `${JSON.stringify({ modules, config }, null, 2)}\n`);
  const schema = { ...z.toJSONSchema(RunConfigSchema, { io: "input" }), title: "faultline.json: what `faultline run` runs" };
  await writeFile(join(DIST, "faultline.schema.json"), `${JSON.stringify(schema, null, 2)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildPackage();
  process.stdout.write(`built ${DIST}\n`);
}
