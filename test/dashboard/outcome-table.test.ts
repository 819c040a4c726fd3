import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { OUTCOMES, OutcomeSchema } from "../../src/classify/index.ts";
import { outcomeCss } from "../../src/dashboard/outcome-assets.ts";
import { importClient } from "./served-modules.ts";

const { OUTCOMES: served } = await importClient<{ OUTCOMES: unknown }>("outcome-table.client.js");
const { failed } = await importClient<{ failed: (entry: unknown) => boolean }>("timeline-layout.client.js");

test("the browser gets the classifier's outcome table, every outcome in it", () => {
  assert.deepEqual(served, OUTCOMES);
  assert.deepEqual(Object.keys(OUTCOMES).sort(), [...OutcomeSchema.options].sort());
});

test("every outcome has its own label, so the legend and the badges name each one apart", () => {
  const labels = Object.values(OUTCOMES).map((traits) => traits.label);
  assert.equal(new Set(labels).size, labels.length, labels.join(", "));
});

test("every outcome's colour is a theme colour defined for light and dark", async () => {
  const base = await readFile(new URL("../../src/dashboard/client/styles/base.css", import.meta.url), "utf8");
  for (const [outcome, { colour }] of Object.entries(OUTCOMES)) {
    const definitions = base.match(new RegExp(`--o-${colour}:`, "g")) ?? [];
    assert.equal(definitions.length, 2, `${outcome}: --o-${colour} in light and dark`);
    assert.match(outcomeCss, new RegExp(`\\.o-${outcome} \\{\\n  --c: var\\(--o-${colour}\\);`));
  }
});

test("the timeline treats as a failure, to be retried, exactly the outcomes the table does not count as success", () => {
  for (const [outcome, { success }] of Object.entries(OUTCOMES)) {
    assert.equal(failed({ verdict: { outcome }, response: { status: 200 } }), !success, outcome);
  }
});
