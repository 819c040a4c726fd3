import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SCENARIOS } from "../../scenarios/index.ts";
import { COLUMNS } from "../../scorecard/columns.ts";
import { cellDifferences, journalRows, judgedEvidence, markAgainst } from "../../scorecard/compare.ts";
import { renderScorecard } from "../../scorecard/render.ts";
import { type Results, ResultsSchema } from "../../scorecard/results.ts";

// The committed scorecard without running it: docs/scorecard.md is rendered from scorecard/results.json, every
// committed column covers the whole catalogue, and the comparison the CI slice relies on can fail.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const results: Results = ResultsSchema.parse(JSON.parse(readFileSync(join(ROOT, "scorecard", "results.json"), "utf8")));

test("docs/scorecard.md is what npm run scorecard renders from the committed results.json", () => {
  assert.equal(readFileSync(join(ROOT, "docs", "scorecard.md"), "utf8"), renderScorecard(results));
});

test("every committed column has a cell for every scenario of the catalogue", () => {
  const ids = SCENARIOS.map((scenario) => scenario.id).sort();
  assert.deepEqual(results.scenarios.map((s) => s.id).sort(), ids);
  for (const client of results.clients) assert.deepEqual(Object.keys(results.cells[client.id] ?? {}).sort(), ids, client.id);
  for (const client of results.clients) assert.ok(COLUMNS.some((column) => column.id === client.id), `${client.id} is no column of scorecard/columns.ts`);
});

test("docs/scorecard.md marks elicitation.url_mode, which asks a person to approve in a browser, as needing one in every column", () => {
  const row = readFileSync(join(ROOT, "docs", "scorecard.md"), "utf8").split("\n").find((line) => line.startsWith("| `elicitation.url_mode` |"));
  assert.ok(row, "no row for elicitation.url_mode");
  assert.equal(row.split(" | ").filter((cell) => cell.includes("not run: needs a person at a browser")).length, results.clients.length, row);
});

test("every committed cell that was run links to an evidence file that names its result", () => {
  for (const [client, cells] of Object.entries(results.cells)) {
    for (const [scenario, cell] of Object.entries(cells)) {
      if (cell.result === "not run") continue;
      const text = readFileSync(join(ROOT, "scorecard", cell.evidence!), "utf8");
      assert.ok(text.startsWith(`# ${client} × ${scenario}\n`), `${cell.evidence}`);
      assert.ok(text.includes(`Result: **${cell.result === "warning" ? "pass" : cell.result}**`), `${cell.evidence} says another result`);
    }
  }
});

const cell = (result: "pass" | "fail", status: string) => ({ result, timingSensitive: false, checks: [{ id: "http-retry-bounded", status }], command: "exit 0", reproduce: "" });
const withCell = (c: ReturnType<typeof cell>): Results => ({ ...results, cells: { "sdk-v1": { baseline: c } } });

test("the slice comparison finds no difference between two runs that agree", () => {
  assert.deepEqual(cellDifferences(withCell(cell("pass", "pass")), withCell(cell("pass", "pass"))), []);
});

test("the slice comparison names a cell whose check status differs", () => {
  assert.deepEqual(cellDifferences(withCell(cell("pass", "pass")), withCell(cell("fail", "fail"))), [
    "sdk-v1 × baseline: committed pass [http-retry-bounded=pass], this run fail [http-retry-bounded=fail]",
  ]);
});

test("the slice comparison names a cell the committed results do not have", () => {
  const fresh: Results = { ...results, cells: { "no-such-client": { baseline: cell("pass", "pass") } } };
  assert.deepEqual(cellDifferences(results, fresh), ["no-such-client × baseline: not in the committed results"]);
});

const EVIDENCE = [
  "# sdk-v1 × session.expire_after",
  "",
  "## Checks",
  "",
  "- **fail** `session-reinitialized`: no new session. (evidence: #6)",
  "- **pass** `non-idempotent-not-replayed`: not resent. (evidence: #5, #6)",
  "",
  "## Journal entries",
  "",
  "| seq | HTTP | method | status | fault | retry of | verdict |",
  "|---|---|---|---|---|---|---|",
  "| 6 | POST | tools/call place_order | 404 | session_expired: request 4 on this session; it expired after 3 |  | HTTP_ERROR |",
  "",
].join("\n");

test("an evidence file's journal rows are read as seq, HTTP method, JSON-RPC method, status and fault kind", () => {
  assert.deepEqual(journalRows(EVIDENCE), ["6 POST tools/call place_order 404 session_expired"]);
});

test("an evidence file's failed and warning checks cite the entries they name, and passing checks are left out", () => {
  assert.deepEqual(judgedEvidence(EVIDENCE.replace("(evidence: #6)", "(evidence: #6, #7)")), [6, 7]);
});

// Determinism: a second full run is kept (scorecard/second-run.json) and every cell it gave otherwise is marked.
const SECOND = join(ROOT, "scorecard", "second-run.json");

test("a second full run is kept beside the committed one, and every cell the two runs gave differently is marked ≠, and no other", () => {
  assert.ok(existsSync(SECOND), "scorecard/second-run.json is missing: run the scorecard again into a folder (--out DIR), then npm run scorecard -- --against DIR");
  const second: Results = ResultsSchema.parse(JSON.parse(readFileSync(SECOND, "utf8")));
  const marked = markAgainst(results, second, "scorecard/second-run.json");
  assert.deepEqual(results.secondRun, marked.secondRun);
  for (const [client, row] of Object.entries(marked.cells)) {
    for (const [scenario, c] of Object.entries(row)) assert.equal(results.cells[client]![scenario]!.otherRun, c.otherRun, `${client} × ${scenario}`);
  }
  const table = readFileSync(join(ROOT, "docs", "scorecard.md"), "utf8").split("\n").filter((line) => line.startsWith("| `"));
  const shown = table.reduce((n, line) => n + line.split(" | ").filter((text) => text.includes(" ≠]")).length, 0);
  assert.equal(shown, marked.secondRun!.differing);
  assert.ok(marked.secondRun!.compared >= results.clients.length * 40, `only ${marked.secondRun!.compared} cells compared`);
});

const runOf = (cells: Results["cells"], oauth = "none"): Results => ({ ...results, clients: results.clients.map((c) => ({ ...c, oauth })), cells });

test("two runs that differ only in one check's status of one cell: that cell is marked with the other run's statuses, its neighbour is not", () => {
  const one = runOf({ "sdk-v1": { baseline: cell("pass", "pass"), "errors.tool_error": cell("pass", "pass") } });
  const two = runOf({ "sdk-v1": { baseline: cell("pass", "info"), "errors.tool_error": cell("pass", "pass") } });
  const marked = markAgainst(one, two, "second.json");
  assert.equal(marked.cells["sdk-v1"]!.baseline!.otherRun, "pass [http-retry-bounded=info]");
  assert.equal(marked.cells["sdk-v1"]!["errors.tool_error"]!.otherRun, undefined);
  assert.deepEqual({ compared: marked.secondRun!.compared, differing: marked.secondRun!.differing }, { compared: 2, differing: 1 });
});

test("an auth scenario is not compared where the column's OAuth set-up changed between the runs, and is where it did not", () => {
  const one = { "sdk-v1": { "auth.unauthorized": cell("pass", "pass") } };
  const two = { "sdk-v1": { "auth.unauthorized": cell("fail", "fail") } };
  assert.equal(markAgainst(runOf(one, "its own"), runOf(two, "none"), "x").secondRun!.compared, 0);
  assert.equal(markAgainst(runOf(one, "its own"), runOf(two, "its own"), "x").cells["sdk-v1"]!["auth.unauthorized"]!.otherRun, "fail [http-retry-bounded=fail]");
});
