import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cellDifferences, journalRows, judgedEvidence } from "../../scorecard/compare.ts";
import { type Results, ResultsSchema } from "../../scorecard/results.ts";

// The scorecard's CI slice: two clients × a handful of scenarios run again (`npm run scorecard -- --client … --scenario
// … --out DIR`, its own fresh npm run serve) and compared with the committed scorecard/results.json, cell by cell;
// and the evidence of every fail and warning among them compared with the journal this run saw on the wire. The
// scenarios are ones no timing check judges, so the comparison is exact. Needs `npm ci --prefix scorecard`.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLIENTS = ["sdk-v1", "sdk-v2-modern"];
const SCENARIOS = ["baseline", "errors.tool_error", "session.expire_after", "session.missing_id", "malformed.truncated_json", "version.unsupported"];
const committed: Results = ResultsSchema.parse(JSON.parse(readFileSync(join(ROOT, "scorecard", "results.json"), "utf8")));

function runSlice(): { out: string; fresh: Results } {
  assert.ok(existsSync(join(ROOT, "scorecard", "node_modules", "@modelcontextprotocol")), "scorecard/node_modules is missing: run npm ci --prefix scorecard");
  const out = mkdtempSync(join(tmpdir(), "scorecard-slice-"));
  const run = spawnSync(process.execPath, ["scorecard/run.ts", "--client", CLIENTS.join(","), "--scenario", SCENARIOS.join(","), "--out", out], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
  assert.equal(run.status, 0, `npm run scorecard (the slice) failed:\n${run.stdout}\n${run.stderr}`);
  return { out, fresh: ResultsSchema.parse(JSON.parse(readFileSync(join(out, "results.json"), "utf8"))) };
}

test("the slice's cells are committed and no timing check judges them, so a second run must give the same", () => {
  for (const client of CLIENTS) {
    for (const scenario of SCENARIOS) {
      const cell = committed.cells[client]?.[scenario];
      assert.ok(cell, `${client} × ${scenario} is not in scorecard/results.json`);
      assert.equal(cell.timingSensitive, false, `${client} × ${scenario} is timing-sensitive: not for an exact comparison`);
    }
  }
});

test("the slice run again gives the committed cells, and each fail and warning's evidence is what the wire showed this time", { timeout: 600_000 }, (t) => {
  const { out, fresh } = runSlice();
  t.after(() => rmSync(out, { recursive: true, force: true }));
  assert.equal(Object.values(fresh.cells).flatMap((cells) => Object.keys(cells)).length, CLIENTS.length * SCENARIOS.length);
  assert.deepEqual(cellDifferences(committed, fresh), []);

  let compared = 0;
  for (const client of CLIENTS) {
    for (const scenario of SCENARIOS) {
      const cell = committed.cells[client]![scenario]!;
      if (cell.result !== "fail" && cell.result !== "warning") continue;
      const before = readFileSync(join(ROOT, "scorecard", cell.evidence!), "utf8");
      const now = readFileSync(join(out, fresh.cells[client]![scenario]!.evidence!), "utf8");
      const rows = journalRows(before);
      // The committed evidence names the entries its failed and warning checks cite, and the wire showed the same ones.
      for (const seq of judgedEvidence(before)) assert.ok(rows.some((row) => row.startsWith(`${seq} `)), `${client} × ${scenario}: entry #${seq} is cited but not shown`);
      assert.deepEqual(rows, journalRows(now), `${client} × ${scenario}: the committed evidence is not what the wire showed`);
      compared++;
    }
  }
  assert.ok(compared >= 2, `only ${compared} fail or warning cells in the slice: pick scenarios that fail`);
});
