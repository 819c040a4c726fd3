import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { CHECK_IDS } from "../../src/mcp/check-ids.ts";
import { ALIASES, findScenario, SCENARIOS } from "../../scenarios/index.ts";

// The gate of "no silent ok": every scenario says what judges the client under it (`judging`), and `faultline run`,
// /checks and the docs' table read that declaration. These tests hold the declarations to the code.

const exercisedBy = (s: (typeof SCENARIOS)[number]) => s.judging.exercisedBy ?? "fault";

test("every scenario that can fault a request, unless it is a control, names at least one check that judges the client", () => {
  const unjudged = SCENARIOS.filter((s) => s.decide !== undefined && exercisedBy(s) !== "control" && s.judging.checks.length === 0).map((s) => s.id);
  assert.deepEqual(unjudged, []);
});

test("every scenario without a decide() or decideGet() is exercised by its answers or is a control, since only they mark a fault in the journal", () => {
  const wrong = SCENARIOS.filter((s) => s.decide === undefined && s.decideGet === undefined && exercisedBy(s) === "fault").map((s) => s.id);
  assert.deepEqual(wrong, []);
});

test("every scenario exercised by its answers names a check, the only thing that can show its trouble reached the client", () => {
  const blind = SCENARIOS.filter((s) => exercisedBy(s) === "answers" && s.judging.checks.length === 0).map((s) => s.id);
  assert.deepEqual(blind, []);
});

test("the checks that show a scenario's trouble was reached are among the checks it names", () => {
  const stray = SCENARIOS.flatMap((s) => (s.judging.reachedBy ?? []).filter((id) => !s.judging.checks.includes(id)).map((id) => `${s.id}: ${id}`));
  assert.deepEqual(stray, []);
});

test("every check a scenario names is a declared check id, named once", () => {
  for (const s of SCENARIOS) {
    for (const id of s.judging.checks) assert.ok(Object.hasOwn(CHECK_IDS, id), `${s.id} names ${id}, which is no check`);
    assert.equal(new Set(s.judging.checks).size, s.judging.checks.length, `${s.id} names a check twice`);
  }
});

test("every declared check id is emitted by a check family in src/checks/, so that no scenario names a check that never runs", () => {
  const dir = new URL("../../src/checks/", import.meta.url);
  const source = readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => readFileSync(new URL(f, dir), "utf8")).join("\n");
  const silent = Object.keys(CHECK_IDS).filter((id) => !source.includes(`"${id}"`));
  assert.deepEqual(silent, []);
});

test("every alias is judged as the scenario that answers it", () => {
  for (const alias of ALIASES) assert.deepEqual(findScenario(alias.id)?.judging, findScenario(alias.answeredBy)?.judging, alias.id);
});
