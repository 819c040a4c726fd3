import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { importGraph } from "./imports.ts";
import { LAYERS, layerOf, layerViolations } from "./layers.ts";

// A gate: every import reads downwards, or within its own layer (docs/development.md, "Layers"). A file that fits
// no layer fails too, so a new folder has to be placed before it can be imported.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const graph = importGraph(ROOT, ["src", "routes", "scenarios"]);

test("every file of src/, routes/ and scenarios/ belongs to a layer", () => {
  const homeless = [...graph.keys()].filter((file) => layerOf(file) === undefined);
  assert.deepEqual(homeless, [], `files outside every layer of test/architecture/layers.ts: ${homeless.join(", ")}`);
});

test("no file imports a file of a higher layer", () => {
  const violations = layerViolations(graph);
  assert.deepEqual(violations, [], `imports against the layer order:\n${violations.join("\n")}`);
});

test("the protocol core and the wire layer import nothing of the answer sources, sessions, journal, OAuth or access", () => {
  const forbidden = ["src/proxy/", "src/recording/", "src/session/", "src/journal/", "src/oauth/", "src/access/"];
  const low = [...graph].filter(([file]) => file.startsWith("src/mcp/") || file.startsWith("src/wire/") || file.startsWith("src/faults/"));
  const bad = low.flatMap(([file, targets]) => targets.filter((t) => forbidden.some((f) => t.startsWith(f))).map((t) => `${file} -> ${t}`));
  assert.deepEqual(bad, []);
});

test("the gate sees an import against the order: a wire helper that reads the session layer", () => {
  const planted = new Map(graph);
  planted.set("src/wire/jsonrpc.ts", [...(graph.get("src/wire/jsonrpc.ts") ?? []), "src/session/session-object.ts"]);
  assert.deepEqual(layerViolations(planted), ["src/wire/jsonrpc.ts (wire) -> src/session/session-object.ts (session)"]);
  assert.ok(LAYERS.length > 10);
});
