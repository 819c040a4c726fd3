import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { SCENARIOS } from "../../scenarios/index.ts";
import { counterState, facts, NOW, type ScenarioCases } from "../helpers/decide.ts";

// Every scenario's decide() as a table, in process: hand-made request facts and counters in, the fault out.
// The tables live under test/scenarios/decide/, one file per scenario file, at the same path as under scenarios/.

const ROOT = new URL("../../", import.meta.url).pathname;
const TABLES = join(ROOT, "test/scenarios/decide");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []))
    .sort();
}

const tables: Array<ScenarioCases & { file: string }> = [];
for (const file of files(TABLES)) {
  const mod = (await import(file)) as { default: ScenarioCases };
  tables.push({ ...mod.default, file: relative(TABLES, file) });
}

/** Where each registered scenario is defined, relative to scenarios/. */
async function scenarioFiles(): Promise<Map<string, string>> {
  const dir = join(ROOT, "scenarios");
  const byId = new Map<string, string>();
  for (const file of files(dir)) {
    const exported = ((await import(file)) as { default?: unknown }).default;
    const scenario = SCENARIOS.find((s) => s === exported);
    if (scenario) byId.set(scenario.id, relative(dir, file));
  }
  return byId;
}

for (const { scenario: id, cases, file } of tables) {
  const scenario = SCENARIOS.find((s) => s.id === id);
  for (const row of cases) {
    test(`${id}: ${row.name} (${file})`, () => {
      assert.ok(scenario?.decide, `${file} names ${id}, which is not a registered scenario with a decide()`);
      const params = scenario.params.parse(row.params ?? {});
      const count = counterState();
      row.steps.forEach((step, index) => {
        const request = facts(step.request);
        const decision = scenario.decide?.({ params, request, counters: count(request, step.counters), now: step.now ?? NOW });
        // Compared as journalled (JSON), so an optional field left undefined counts as absent.
        const fault = decision === undefined ? undefined : JSON.parse(JSON.stringify(decision.fault));
        assert.deepEqual(fault, step.fault, `request ${index + 1} (${request.method ?? request.kind})`);
      });
    });
  }
}

test("GATE: every registered scenario with a decide() has a table of cases under test/scenarios/decide/", () => {
  const covered = new Set(tables.filter((t) => t.cases.length > 0).map((t) => t.scenario));
  const missing = SCENARIOS.filter((s) => s.decide && !covered.has(s.id)).map((s) => s.id);
  assert.deepEqual(missing, [], "add a file under test/scenarios/decide/ (same path as the scenario's file) with at least one case");
});

test("GATE: each table sits at the path of its scenario's file under scenarios/", async () => {
  const where = await scenarioFiles();
  const misplaced = tables
    // select.ts holds the selection rules of scenarios/select.ts, shown on one selective scenario.
    .filter((t) => t.file !== "select.ts" && where.get(t.scenario) !== t.file)
    .map((t) => `${t.file} holds ${t.scenario}, whose scenario file is scenarios/${where.get(t.scenario)}`);
  assert.deepEqual(misplaced, []);
});
