import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunReport, RunReportSchema } from "../../src/cli/json-report.ts";
import { findScenario } from "../../scenarios/index.ts";
import { useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";

// The rate-limit scenarios of issue 25 item 6 under `faultline run`, with their example params as `--all` runs them
// (and a long Retry-After), with the official SDK clients: each result is backed by a check the scenario declares, or
// says why not. The same rules as run-all.e2e.ts, in seconds rather than minutes.
const server = useServer();
const cli = useBuiltCli();
const client = (name: string) => [process.execPath, fileURLToPath(new URL(`clients/${name}.ts`, import.meta.url))];
const IDS = ["ratelimit.concurrency", "ratelimit.retry_after_seconds", "ratelimit.retry_after_date"];

async function run(name: string): Promise<RunReport> {
  const file = join(cli.dir, `ratelimit-${name}.json`);
  const scenarios = [
    ...IDS.map((id) => ["--scenario", `${id}=${JSON.stringify(findScenario(id)!.example)}`]),
    ["--scenario", `ratelimit.retry_after_seconds=${JSON.stringify({ seconds: 600 })}`],
    ["--scenario", `ratelimit.retry_after_seconds=${JSON.stringify({ seconds: 1, rateLimit: "ietf", retryAfter: false })}`],
  ].flat();
  const args = ["run", "--server", server.url, ...scenarios, "--allow-unexercised", "--allow-unjudged", "--timeout", "40", "--json", file, "--", ...client(name)];
  const result = await cli.runAsync(args, {});
  assert.ok(result.code === 0 || result.code === 1, `faultline run exited ${result.code}: ${result.stderr}`);
  return RunReportSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

function dishonesty(report: RunReport): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => void (ok || problems.push(what));
  expect(report.scenarios.length === IDS.length + 2, `${report.scenarios.length} scenarios ran`);
  for (const row of report.scenarios) {
    const judging = findScenario(row.scenario)!.judging;
    const declared = (status: string) => row.checks.filter((c) => c.status === status && judging.checks.includes(c.id as never)).map((c) => c.id);
    const where = `${row.scenario}: ${row.judgement} (${row.reasons.join("; ")}) with ${JSON.stringify(row.checks.map((c) => [c.id, c.status]))}`;
    expect(row.faults.fired > 0, `the fault never fired: ${where}`);
    if (row.judgement === "fail") expect(declared("fail").length > 0, `a check the scenario does not declare failed it: ${where}`);
    if (row.judgement === "pass") expect(declared("pass").length + declared("warning").length > 0, `a pass no declared check judged: ${where}`);
    if (row.judgement === "not judged") expect(row.checks.every((c) => c.status === "info"), `not judged, yet a check judged: ${where}`);
  }
  return problems;
}

for (const name of ["sdk-v1", "sdk-v2"]) {
  test(`faultline run of the rate-limit scenarios with the ${name} client fires every fault and backs every result with a declared check`, { timeout: 300_000 }, async () => {
    const report = await run(name);
    if (process.env.SHOW_RUN) for (const row of report.scenarios) console.log(`${row.scenario} ${JSON.stringify(row.params)}: ${row.judgement}: ${JSON.stringify(row.checks.map((c) => [c.id, c.status, c.message.slice(0, 160)]))}`);
    assert.deepEqual(dishonesty(report), []);
    const long = report.scenarios[IDS.length]!;
    assert.equal(long.checks.find((c) => c.id === "long-retry-after-not-slept")?.status !== undefined, true, JSON.stringify(long.checks));
  });
}
