import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DOC, withTable } from "../../scripts/scenario-checks-table.ts";

test("the scenario → checks table in docs/journal-and-checks.md is the one the registry generates (npm run docs:checks)", () => {
  const page = readFileSync(DOC, "utf8");
  assert.equal(page, withTable(page));
});
