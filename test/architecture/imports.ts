import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A file's relative imports, as repository paths; type-only imports count too, since they tie the files together. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|tsx|js|mjs)$/;
// `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")`.
const SPECIFIERS = [/(?:^|[\n;])\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g, /(?:^|[\n;])\s*import\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : files(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The import graph of every source file under `dirs` (relative to `root`), keyed by path relative to `root`. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of dirs.flatMap((dir) => files(join(root, dir)))) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    const targets = new Set<string>();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1] ?? "";
        if (!specifier.startsWith(".")) continue;
        const target = resolve(dirname(file), specifier);
        if (existsSync(target) && statSync(target).isFile()) targets.add(relative(root, target));
      }
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the path of files that closes it (first file repeated at the end). */
export function findCycles(graph: ImportGraph): string[][] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    if (state.has(start)) continue;
    // An explicit stack instead of recursion: the walk is as deep as the longest import chain.
    const path: string[] = [];
    const stack: { file: string; next: number }[] = [{ file: start, next: 0 }];
    state.set(start, "open");
    path.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { file: string; next: number };
      const targets = graph.get(top.file) ?? [];
      if (top.next >= targets.length) {
        state.set(top.file, "done");
        stack.pop();
        path.pop();
        continue;
      }
      const target = targets[top.next++] as string;
      const seen = state.get(target);
      if (seen === "open") cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (seen === undefined) {
        state.set(target, "open");
        path.push(target);
        stack.push({ file: target, next: 0 });
      }
    }
  }
  return cycles;
}
