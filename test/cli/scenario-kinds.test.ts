import { test } from "node:test";
import assert from "node:assert/strict";
import { KNOWN_KINDS, scenarioKind } from "../../src/cli/exercise.ts";
import { SCENARIOS } from "../../scenarios/index.ts";

// `faultline run` tells "its fault never fired" from the journal's faults, which only a scenario's decide() puts
// there. A scenario without decide() must be known to the CLI as a control or an answers scenario, or every run of it
// would read "not exercised".

test("every scenario without a decide() is a control or an answers scenario for faultline run", () => {
  const unknown = SCENARIOS.filter((s) => s.decide === undefined && scenarioKind(s.id) === "fault").map((s) => s.id);
  assert.deepEqual(unknown, [], "add each to CONTROL or ANSWERS in src/cli/exercise.ts");
});

test("every scenario the CLI lists as control or answers is in the registry", () => {
  const ids = new Set(SCENARIOS.map((s) => s.id));
  for (const id of [...KNOWN_KINDS.control, ...KNOWN_KINDS.answers]) assert.ok(ids.has(id), `${id} is not a scenario`);
});
