import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { findCycles, importGraph, type ImportGraph } from "./imports.ts";

// A gate: no import cycle between files of src/, routes/ and scenarios/. Dependencies run one way (for the MCP
// endpoint: routes -> session -> pipeline -> faults -> wire helpers), so each layer can be read without the one above.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("no file in src/, routes/ or scenarios/ imports itself through other files", () => {
  const graph = importGraph(ROOT, ["src", "routes", "scenarios"]);
  assert.ok(graph.size > 100, `only ${graph.size} files found: the scan is looking in the wrong place`);
  const cycles = findCycles(graph).map((cycle) => cycle.join(" -> "));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join("\n")}`);
});

test("the scan sees multi-line, re-export, type-only and dynamic imports", () => {
  const graph = importGraph(ROOT, ["src/session"]);
  // stubs.ts re-exports indexStub from index-stub.ts and imports the SessionObject type.
  assert.ok(graph.get("src/session/stubs.ts")?.includes("src/session/index-stub.ts"));
  assert.ok(graph.get("src/session/stubs.ts")?.includes("src/session/session-object.ts"));
});

test("the cycle finder reports a cycle of two files and one of three, and none in a chain", () => {
  const two: ImportGraph = new Map([["a", ["b"]], ["b", ["a"]]]);
  assert.deepEqual(findCycles(two), [["a", "b", "a"]]);
  const three: ImportGraph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assert.deepEqual(findCycles(three), [["a", "b", "c", "a"]]);
  const chain: ImportGraph = new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]);
  assert.deepEqual(findCycles(chain), []);
});
