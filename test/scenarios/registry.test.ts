import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SCENARIOS, paramsSchema } from "../../scenarios/index.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SCENARIO_DIR = join(ROOT, "scenarios");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []));
}

/** A module is a scenario file when its default export has the shape of a Scenario. */
function isScenario(value: unknown): value is { id: string } {
  return typeof value === "object" && value !== null && "id" in value && "params" in value && "summary" in value;
}

test("every scenario file under scenarios/ is registered", async () => {
  const unregistered: string[] = [];
  for (const file of files(SCENARIO_DIR)) {
    if (file === join(SCENARIO_DIR, "index.ts")) continue;
    const mod = (await import(file)) as { default?: unknown };
    if (isScenario(mod.default) && !SCENARIOS.includes(mod.default as (typeof SCENARIOS)[number])) unregistered.push(relative(ROOT, file));
  }
  assert.deepEqual(unregistered, [], "scenario files missing from the registry in scenarios/index.ts");
});

test("scenario ids are unique and in area.name style", () => {
  const ids = SCENARIOS.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[a-z0-9_]+(\.[a-z0-9_]+)?$/, id);
});

test("every scenario's params parse {} so its defaults work", () => {
  for (const scenario of SCENARIOS) {
    const parsed = paramsSchema(scenario).safeParse({});
    assert.ok(parsed.success, `${scenario.id}: ${parsed.success ? "" : parsed.error.message}`);
  }
});

test("every scenario's example params are valid", () => {
  for (const scenario of SCENARIOS) {
    const parsed = paramsSchema(scenario).safeParse(scenario.example);
    assert.ok(parsed.success, `${scenario.id}: ${parsed.success ? "" : parsed.error.message}`);
  }
});

/** The rows of the table under `| id | layer | params | what it does |`, each split into its cells (`\\|` is a `|` inside a cell). */
function scenarioTable(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const header = lines.indexOf("| id | layer | params | what it does |");
  assert.ok(header >= 0, "docs/scenarios.md has the scenario table's header row");
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.slice(1, line.endsWith("|") ? -1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim()));
  }
  return rows;
}

test("the scenario table of docs/scenarios.md has one row of four cells for each registered scenario", () => {
  const rows = scenarioTable(readFileSync(join(ROOT, "docs", "scenarios.md"), "utf8"));
  assert.deepEqual(rows.filter((cells) => cells.length !== 4).map((cells) => cells[0]), [], "rows whose cells a stray | cuts or merges");
  assert.deepEqual(rows.map((cells) => cells[0]).toSorted(), SCENARIOS.map((s) => `\`${s.id}\``).toSorted(), "the table's ids against the registry");
});
