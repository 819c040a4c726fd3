/**
 * What `npm start` and `npm run serve` do for the files they create and the lines they print (issue 27, finding 11):
 * state readable by its owner only, and no capability secret in the printed request log.
 */
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

/**
 * Files created from now on (by this process, wrangler and workerd, which inherit the mask) are readable by their
 * owner only: the state folder holds journals with request bodies and recordings of upstream answers.
 */
export function ownerOnlyState(stateDir: string): void {
  process.umask(0o077);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
}

/**
 * A capability URL's secret, `/s/{id}.{secret}/`, replaced by the same marker the journal uses; also when the dot
 * came percent-encoded (`%2E`), which the Worker decodes before it checks the secret.
 */
export function redactCapabilities(line: string): string {
  return line.replace(/(\/s\/[A-Za-z0-9_-]+)(?:\.|%2[Ee])[A-Za-z0-9_%-]+/g, "$1.[redacted]");
}

/** Copies `from` to `to` line by line with capability secrets redacted; resolves when `from` ends. */
export function pipeRedacted(from: Readable, to: Writable): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: from, crlfDelay: Infinity });
    lines.on("line", (line) => to.write(`${redactCapabilities(line)}\n`));
    lines.once("close", resolve);
  });
}
