// Builds the CLI into one JavaScript file that runs on Node 20 or later, anywhere: `npm run build:cli [OUTFILE]`.
import { build, type BuildOptions, type Plugin } from "esbuild";
import { chmod } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const ENTRY = fileURLToPath(new URL("faultline.ts", import.meta.url));
export const DEFAULT_OUTFILE = fileURLToPath(new URL("../dist/faultline.mjs", import.meta.url));

/** `faultline start` reads wrangler.toml through wrangler; the bundle reads the copy made at pack time instead. */
const noWrangler: Plugin = {
  name: "packaged-wrangler",
  setup(build) {
    build.onResolve({ filter: /^wrangler$/ }, () => ({ path: fileURLToPath(new URL("packaged-wrangler.ts", import.meta.url)) }));
  },
};

/** How every file the package ships for Node is bundled: one ES module with its imports (zod included). */
export const NODE_BUNDLE = {
  bundle: true,
  platform: "node",
  format: "esm",
  // The oldest Node the file must run on; esbuild refuses syntax it cannot lower for it.
  target: "node20",
  logLevel: "warning",
  legalComments: "none",
} as const satisfies BuildOptions;

/** Bundles bin/faultline.ts and everything it imports into `outfile`, an executable ES module. */
export async function buildCli(outfile: string = DEFAULT_OUTFILE): Promise<void> {
  await build({ ...NODE_BUNDLE, entryPoints: [ENTRY], outfile, plugins: [noWrangler] });
  // The entry's `#!/usr/bin/env node` line is kept: executable, the file runs on its own.
  await chmod(outfile, 0o755);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outfile = process.argv[2] ?? DEFAULT_OUTFILE;
  await buildCli(outfile);
  process.stdout.write(`built ${outfile}\n`);
}
