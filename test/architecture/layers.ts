import type { ImportGraph } from "./imports.ts";

/**
 * The layers of src/, routes/ and scenarios/, lowest first. A file may import files of its own layer or of a layer
 * listed before it, never after. Each layer is a list of path prefixes (a folder ends in "/").
 */
export const LAYERS: readonly { name: string; paths: readonly string[] }[] = [
  { name: "base", paths: ["src/base/", "src/node-crypto.d.ts"] },
  { name: "wire", paths: ["src/wire/"] },
  { name: "classify", paths: ["src/classify/"] },
  { name: "api-error", paths: ["src/api-error.ts"] },
  { name: "faults", paths: ["src/faults/"] },
  { name: "mcp", paths: ["src/mcp/"] },
  { name: "scenario-kit", paths: ["src/scenario-kit/"] },
  { name: "oauth", paths: ["src/oauth/"] },
  { name: "scenarios", paths: ["scenarios/"] },
  { name: "journal", paths: ["src/journal/"] },
  { name: "proxy", paths: ["src/proxy/"] },
  { name: "recording", paths: ["src/recording/"] },
  { name: "checks", paths: ["src/checks/"] },
  { name: "session", paths: ["src/session/"] },
  { name: "dashboard", paths: ["src/dashboard/"] },
  { name: "access", paths: ["src/access/"] },
  { name: "routes", paths: ["routes/"] },
  { name: "cli", paths: ["src/cli/"] },
  { name: "testing", paths: ["src/testing/"] },
  { name: "app", paths: ["src/app.ts", "src/worker.ts"] },
];

/** The index of a file's layer in LAYERS, or undefined when it fits none. */
export function layerOf(file: string): number | undefined {
  const index = LAYERS.findIndex((layer) => layer.paths.some((path) => (path.endsWith("/") ? file.startsWith(path) : file === path)));
  return index === -1 ? undefined : index;
}

/** Each import from a lower layer to a higher one, as "from (layer) -> to (layer)". */
export function layerViolations(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to !== undefined && to > from) out.push(`${file} (${LAYERS[from]!.name}) -> ${target} (${LAYERS[to]!.name})`);
    }
  }
  return out.sort();
}
