// GATE: nothing outside src/classify/ imports the classifier's internals; everything goes through src/classify/index.ts,
// the one entry point deno.json exports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CLASSIFY = join(ROOT, "src", "classify");
const ENTRY = join(CLASSIFY, "index.ts");
const SKIP = new Set(["node_modules", ".git", ".wrangler", "dist", "coverage"]);
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
// Static imports and re-exports (`from "x"`), side-effect imports (`import "x"`) and dynamic imports (`import("x")`).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === CLASSIFY ? [] : sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every `file:line  specifier` outside src/classify/ whose import resolves into src/classify/ but not to its index. */
function internalImports(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, index) => {
      for (const [, specifier] of line.matchAll(SPECIFIER)) {
        if (specifier === undefined || !specifier.startsWith(".")) continue;
        const target = resolve(dirname(file), specifier);
        if (target.startsWith(CLASSIFY + sep) && target !== ENTRY) found.push(`${relative(ROOT, file)}:${index + 1}  ${specifier}`);
      }
    });
  }
  return found;
}

test("no file outside src/classify/ imports anything under src/classify/ but its index.ts", () => {
  const files = sourceFiles(ROOT);
  assert.ok(files.some((f) => f.endsWith(join("routes", "classify.ts"))), "the scan must reach routes/");
  assert.deepEqual(internalImports(files), []);
});
