import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of Faultline's package.json: this file is src/cli/ in a checkout and dist/faultline.mjs (or
 * dist/testing.mjs) once built, so the folder is found by walking up, not by a fixed number of "..".
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "faultline") return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The version in Faultline's package.json ("unknown" for a lone copy of the CLI file). */
export function version(): string {
  const root = packageRoot();
  if (root === undefined) return "unknown";
  return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
}
