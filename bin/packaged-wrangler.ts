/**
 * What the packaged CLI has instead of wrangler: scripts/settings.ts calls wrangler's `unstable_readConfig`, and
 * bin/build-cli.ts points the import of "wrangler" here. wrangler needs Node 22 and is not loaded by an installed
 * `faultline`, so wrangler.toml is read once at pack time (bin/build-package.ts) into dist/worker/serve.json.
 */
import { readFileSync } from "node:fs";

/** wrangler.toml as read at pack time; `import.meta.url` is dist/faultline.mjs once bundled. */
export function unstable_readConfig(): unknown {
  const file = new URL("./worker/serve.json", import.meta.url);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`no server bundle at ${file.pathname} (this copy of the CLI was built without one: npm pack builds it)`);
  }
  return (JSON.parse(text) as { config: unknown }).config;
}
