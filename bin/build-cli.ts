// Builds the CLI into one JavaScript file that runs on Node 20 or later, anywhere: `npm run build:cli`.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("faultline.ts", import.meta.url));
export const DEFAULT_OUTFILE = fileURLToPath(new URL("../dist/faultline.mjs", import.meta.url));

/** Bundles bin/faultline.ts and everything it imports (zod included) into `outfile`, an executable ES module. */
export async function buildCli(outfile: string = DEFAULT_OUTFILE): Promise<void> {
  await build({
    entryPoints: [ENTRY],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The entry's `#!/usr/bin/env node` line is kept; the file is made executable below.
    logLevel: "warning",
    legalComments: "none",
  });
  const { chmod } = await import("node:fs/promises");
  await chmod(outfile, 0o755);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outfile = process.argv[2] ?? DEFAULT_OUTFILE;
  await buildCli(outfile);
  process.stdout.write(`built ${outfile}\n`);
}
