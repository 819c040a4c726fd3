import { writeFileSync } from "node:fs";
import { allScenarios, type Skipped } from "./all-scenarios.ts";
import { FaultlineApi } from "./api.ts";
import { runChild } from "./child.ts";
import { runWithRestart } from "./restart.ts";
import { EXIT, systemReason, UsageError } from "./errors.ts";
import { jsonReport } from "./json-report.ts";
import { junitReport } from "./junit.ts";
import { markdownReport, summaryLine } from "./markdown.ts";
import { parseRunArgs, RUN_USAGE, type RunOptions, type ScenarioChoice, type Variant, variantCommand } from "./run-args.ts";
import { judge, runLabel, type ScenarioResult, type ScenarioRun, wallTime } from "./run-result.ts";
import { progressTable } from "./table.ts";

/** `faultline run`: judges a client command against scenarios; exit 1 when a scenario fails the run. */
export async function runCommand(args: string[]): Promise<number> {
  const options = parseRunArgs(args);
  if (options === undefined) {
    process.stdout.write(RUN_USAGE);
    return EXIT.ok;
  }
  // A report path that cannot be written fails now, not after the whole run.
  const reports = [[options.junit, "--junit"], [options.markdown, "--markdown"], [options.json, "--json"]] as const;
  for (const [path, option] of reports) if (path !== undefined) write(path, "", option);
  const api = new FaultlineApi(options.server, process.env.FAULTLINE_ADMIN_TOKEN);
  let scenarios = options.scenarios;
  let skipped: Skipped[] = [];
  if (options.all) ({ chosen: scenarios, skipped } = allScenarios(await api.scenarios()));
  for (const { scenario, reason } of skipped) process.stdout.write(`skipped ${scenario}: ${reason}\n`);

  // Every scenario once per --each variant, the variants outermost: one client configuration after another.
  const runs = options.variants.flatMap((variant) => scenarios.map((choice) => ({ choice, variant })));
  const table = progressTable(runs.map(({ choice, variant }) => runLabel({ scenario: choice.id, variant })), options.timeoutMs);
  const results: ScenarioResult[] = [];
  for (const [i, { choice, variant }] of runs.entries()) {
    const result = judge(await runScenario(api, choice, variant, options, `${i + 1} of ${runs.length}`), options.policy);
    // The header waits for the first row, so that an error before it is not printed under an empty table.
    if (results.length === 0) process.stdout.write(table.header());
    results.push(result);
    process.stdout.write(table.row(result));
  }

  if (options.junit !== undefined) write(options.junit, junitReport(results), "--junit");
  if (options.markdown !== undefined) write(options.markdown, markdownReport(results, skipped), "--markdown");
  if (options.json !== undefined) write(options.json, jsonReport(results, skipped, options.policy, options.timeoutMs), "--json");
  process.stdout.write(`${summaryLine(results, skipped.length)}\n`);
  return results.some((result) => result.failsRun) ? EXIT.failed : EXIT.ok;
}

async function runScenario(api: FaultlineApi, choice: ScenarioChoice, variant: Variant, options: RunOptions, position: string): Promise<ScenarioRun> {
  const session = await api.createSession(choice.id, choice.params);
  const started = performance.now();
  try {
    // The client's output goes to stderr: a header and a footer there say which scenario it belongs to.
    const label = runLabel({ scenario: choice.id, variant });
    process.stderr.write(`faultline: ── ${label} (${position}), session ${session.id}: the client's output follows\n`);
    const env = { FAULTLINE_MCP_URL: session.mcpUrl, FAULTLINE_SESSION_ID: session.id };
    const command = variantCommand(options.command, variant);
    const child = options.restartAfterTask
      ? await runWithRestart(command, env, options.timeoutMs, async () => (await api.journal(session.id)).find((line) => line.verdict?.outcome === "TASK_CREATED")?.seq)
      : await runChild(command, env, options.timeoutMs);
    const durationMs = performance.now() - started;
    process.stderr.write(`faultline: ── ${label}: the client's output ends (${wallTime(durationMs)})\n`);
    const [journal, checks] = await Promise.all([api.journal(session.id), api.checks(session.id)]);
    if (options.keep) process.stderr.write(`faultline: kept session ${session.id} (${choice.id}): ${session.mcpUrl}\n`);
    const exercisedBy = session.judging?.exercisedBy ?? "fault";
    const reachedBy = session.judging?.reachedBy;
    return { scenario: choice.id, params: choice.params, sessionId: session.id, mcpUrl: session.mcpUrl, timeoutMs: options.timeoutMs, durationMs, exercisedBy, ...(reachedBy ? { reachedBy } : {}), child, journal, checks, variant };
  } finally {
    if (!options.keep) await api.deleteSession(session.id);
  }
}

/** Writes a report; a path that cannot be written is the caller's mistake (exit 2), said with the option's name. */
function write(path: string, text: string, option: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`${option}: cannot write ${path}: ${systemReason(error)}`);
  }
}
