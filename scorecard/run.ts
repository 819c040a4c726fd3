/**
 * `npm run scorecard`: every client adapter (columns.ts) under `faultline run --all` against a fresh `npm run serve` on
 * loopback, one (client, era, option) column at a time. Writes scorecard/results.json, the evidence of each cell under
 * scorecard/results/<client>/<scenario>.md, and docs/scorecard.md (rendered from results.json).
 *
 *   npm run scorecard                                   every column, every scenario (tens of minutes)
 *   npm run scorecard -- --client sdk-v1,langchain      those columns only, merged into the committed results
 *   npm run scorecard -- --client sdk-v1 --scenario baseline,errors.tool_error --out DIR   a slice, written to DIR
 *   npm run scorecard -- --render                       docs/scorecard.md again from results.json, running nothing
 *   npm run scorecard -- --against DIR                  compares the committed run with a second full run written to DIR
 *                                                       (--out DIR): marks every cell the two gave otherwise, running nothing
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { FaultlineApi } from "../src/cli/api.ts";
import { type RunReport, RunReportSchema } from "../src/cli/json-report.ts";
import { type Column, COLUMNS } from "./columns.ts";
import { markAgainst } from "./compare.ts";
import { clientOutputs, evidenceFile, type LocalPaths } from "./evidence.ts";
import { renderScorecard } from "./render.ts";
import { type Cell, cellOf, type Results, ResultsSchema, timingSensitive } from "./results.ts";
import { serve, wranglerDev } from "./serve.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HERE = join(ROOT, "scorecard");
/** Per scenario: long enough for the timeouts' stalls, which run in real time; a client still waiting then is ended. */
const TIMEOUT_SECONDS = 40;

/** This checkout's paths on this machine (the folders a worktree symlinks resolve elsewhere), for evidenceFile to write as the repository's. */
function localPaths(): LocalPaths {
  const real = (path: string) => (existsSync(path) ? [realpathSync(path)] : []);
  const folder = (relative: string) => [join(ROOT, relative), ...real(join(ROOT, relative))].map((absolute) => ({ absolute, relative }));
  return { roots: [...folder(""), ...folder("node_modules"), ...folder("scorecard/node_modules")], temp: [tmpdir(), ...real(tmpdir())] };
}

const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/** The `faultline run` command of one cell, against `npm run serve` on its default port. */
function reproduce(column: Column, scenario: string, params: Record<string, unknown>): string {
  const choice = Object.keys(params).length ? `${scenario}=${JSON.stringify(params)}` : scenario;
  const words = ["node", "bin/faultline.ts", "run", "--server", "http://127.0.0.1:8787", "--scenario", choice, "--timeout", String(TIMEOUT_SECONDS), "--", "node", ...adapterArgs(column)];
  return words.map(shellQuote).join(" ");
}
const adapterArgs = (column: Column) => [`scorecard/clients/${column.adapter[0]}`, ...column.adapter.slice(1)];

/** Runs `faultline run` for one column (its output kept in the work folder, for a failure). Returns the JSON report. */
async function runColumn(server: { url: string; token: string }, column: Column, scenarios: string[] | undefined, work: string): Promise<{ report: RunReport; stderr: string }> {
  const host = column.host === "wrangler" ? await wranglerDev() : undefined;
  try {
    return await runFaultline(server, column, scenarios, work, host ? { SCORECARD_AGENTS_URL: host.url } : {});
  } finally {
    await host?.stop();
  }
}

async function runFaultline(server: { url: string; token: string }, column: Column, scenarios: string[] | undefined, work: string, extraEnv: Record<string, string>): Promise<{ report: RunReport; stderr: string }> {
  const json = join(work, `${column.id}.json`);
  // A slice runs each scenario with the example params --all gives it, so that its cells are the full run's.
  const examples = new Map((await new FaultlineApi(server.url, server.token).scenarios()).map((entry) => [entry.id, entry.example ?? {}]));
  const chosen = (id: string) => {
    const params = examples.get(id);
    if (params === undefined) throw new Error(`--scenario: the catalogue has no ${id}`);
    return Object.keys(params).length ? `${id}=${JSON.stringify(params)}` : id;
  };
  const choice = scenarios ? scenarios.flatMap((id) => ["--scenario", chosen(id)]) : ["--all"];
  const args = [join(ROOT, "bin", "faultline.ts"), "run", "--server", server.url, ...choice, "--allow-unexercised", "--allow-unjudged", "--keep", "--timeout", String(TIMEOUT_SECONDS), "--json", json, "--", process.execPath, ...adapterArgs(column)];
  const log = join(work, `${column.id}.log`);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...extraEnv, FAULTLINE_ADMIN_TOKEN: server.token }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  writeFileSync(log, output);
  if (code !== 0 && code !== 1) throw new Error(`faultline run for ${column.id} exited ${code}; its output is in ${log}:\n${output.slice(-2000)}`);
  return { report: RunReportSchema.parse(JSON.parse(readFileSync(json, "utf8"))), stderr };
}

function version(name: string): string {
  const lock = JSON.parse(readFileSync(join(HERE, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  return lock.packages[`node_modules/${name}`]?.version ?? "unknown";
}

function parse() {
  const { values } = parseArgs({ options: { client: { type: "string" }, scenario: { type: "string" }, out: { type: "string" }, render: { type: "boolean" }, against: { type: "string" } } });
  const wanted = values.client?.split(",");
  const unknown = wanted?.filter((id) => !COLUMNS.some((column) => column.id === id)) ?? [];
  if (unknown.length) throw new Error(`--client: no column ${unknown.join(", ")}; the columns are ${COLUMNS.map((c) => c.id).join(", ")}`);
  return { columns: wanted ? COLUMNS.filter((column) => wanted.includes(column.id)) : COLUMNS, scenarios: values.scenario?.split(","), out: values.out, render: values.render === true, against: values.against };
}

function emptyResults(): Results {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  const { version: faultline } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  return { faultline: { version: faultline, commit }, node: process.version, server: "npm run serve (workerd) on 127.0.0.1, a fresh state folder and an admin token", timeoutSeconds: TIMEOUT_SECONDS, clients: [], scenarios: [], cells: {} };
}

async function main(): Promise<void> {
  const options = parse();
  const resultsFile = join(options.out ?? HERE, "results.json");
  const docs = join(ROOT, "docs", "scorecard.md");
  if (options.against !== undefined) {
    // A second full run's cells (--out DIR wrote them) kept beside the committed ones, without its evidence.
    const other = ResultsSchema.parse(JSON.parse(readFileSync(join(options.against, "results.json"), "utf8")));
    const cells = Object.fromEntries(Object.entries(other.cells).map(([client, row]) => [client, Object.fromEntries(Object.entries(row).map(([scenario, { evidence: _, ...cell }]) => [scenario, cell]))]));
    writeFileSync(SECOND_RUN, `${JSON.stringify({ ...other, cells }, null, 1)}\n`);
    const marked = againstSecondRun(ResultsSchema.parse(JSON.parse(readFileSync(resultsFile, "utf8"))));
    writeFileSync(resultsFile, `${JSON.stringify(ResultsSchema.parse(marked), null, 2)}\n`);
    writeFileSync(docs, renderScorecard(marked));
    process.stdout.write(`scorecard: ${marked.secondRun!.compared} cells compared with ${options.against}, ${marked.secondRun!.differing} differ (marked)\n`);
    return;
  }
  if (options.render) {
    // The columns' descriptions (what the adapter drives, its options) come from columns.ts; what was measured stays.
    const results = ResultsSchema.parse(JSON.parse(readFileSync(resultsFile, "utf8")));
    results.clients = results.clients.map((client) => ({ ...client, ...COLUMNS.find((column) => column.id === client.id), adapter: client.adapter }));
    const refreshed = options.out === undefined ? againstSecondRun(results) : results;
    writeFileSync(resultsFile, `${JSON.stringify(ResultsSchema.parse(refreshed), null, 2)}\n`);
    writeFileSync(docs, renderScorecard(refreshed));
    return;
  }
  // A partial run merges into what is there; a slice into --out starts afresh.
  const results = existsSync(resultsFile) && options.out === undefined ? ResultsSchema.parse(JSON.parse(readFileSync(resultsFile, "utf8"))) : emptyResults();
  Object.assign(results, { ...emptyResults(), clients: results.clients, scenarios: results.scenarios, cells: results.cells });
  const work = mkdtempSync(join(tmpdir(), "scorecard-"));
  const server = await serve();
  try {
    const api = new FaultlineApi(server.url, server.token);
    for (const column of options.columns) {
      const started = Date.now();
      process.stdout.write(`scorecard: ${column.id} (${column.library}, ${column.era}, ${column.options})\n`);
      const { report, stderr } = await runColumn(server, column, options.scenarios, work);
      const outputs = clientOutputs(stderr);
      const cells: Record<string, Cell> = {};
      const folder = join(options.out ?? HERE, "results", column.id);
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      for (const row of report.scenarios) {
        const command = reproduce(column, row.scenario, row.params);
        const evidence = `results/${column.id}/${row.scenario}.md`;
        writeFileSync(join(options.out ?? HERE, evidence), evidenceFile(column.id, row, await api.entries(row.sessionId), command, outputs.get(row.scenario) ?? "", localPaths()));
        cells[row.scenario] = cellOf(row, evidence, command);
        await api.deleteSession(row.sessionId);
      }
      for (const { scenario, reason } of report.skipped) cells[scenario] = { result: "not run", timingSensitive: false, checks: [], command: reason, reproduce: "" };
      results.cells[column.id] = cells;
      const catalogue = [...report.scenarios.map((row) => ({ id: row.scenario, params: row.params })), ...report.skipped.map((s) => ({ id: s.scenario, params: {}, notRun: s.reason }))];
      if (options.scenarios === undefined || results.scenarios.length === 0) results.scenarios = catalogue;
      const client = { ...column, adapter: [...column.adapter], version: version(column.library), date: new Date().toISOString().slice(0, 10), durationSeconds: Math.round((Date.now() - started) / 1000) };
      results.clients = [...results.clients.filter((c) => c.id !== column.id), client].sort((a, b) => COLUMNS.findIndex((c) => c.id === a.id) - COLUMNS.findIndex((c) => c.id === b.id));
      writeFileSync(resultsFile, `${JSON.stringify(ResultsSchema.parse(results), null, 2)}\n`);
      process.stdout.write(`scorecard: ${column.id} done in ${client.durationSeconds} s\n`);
    }
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
  if (options.out === undefined) {
    // Re-run columns are compared with the kept second run again, so no mark or count is stale.
    const marked = againstSecondRun(results);
    writeFileSync(resultsFile, `${JSON.stringify(ResultsSchema.parse(marked), null, 2)}\n`);
    writeFileSync(docs, renderScorecard(marked));
  }
}

/** Where the second full run's cells are kept (scorecard/second-run.json), for `--against` and the tests. */
const SECOND_RUN = join(HERE, "second-run.json");

/** The results with each cell's timing mark taken from its checks again, and marked against the kept second run when there is one. */
function againstSecondRun(results: Results): Results {
  const cells = Object.fromEntries(Object.entries(results.cells).map(([client, row]) => [client, Object.fromEntries(Object.entries(row).map(([scenario, cell]) => [scenario, { ...cell, timingSensitive: timingSensitive(cell.checks) }]))]));
  const timed = { ...results, cells };
  if (!existsSync(SECOND_RUN)) return timed;
  return markAgainst(timed, ResultsSchema.parse(JSON.parse(readFileSync(SECOND_RUN, "utf8"))), "scorecard/second-run.json");
}

await main();
