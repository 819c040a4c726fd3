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

test("the README's scenario table lists every scenario id", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const missing = SCENARIOS.map((s) => s.id).filter((id) => !readme.includes(`| \`${id}\` |`));
  assert.deepEqual(missing, [], "scenario ids missing from the README table (rows start with | `id` |)");
});
