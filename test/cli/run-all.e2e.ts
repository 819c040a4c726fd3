import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunReport, RunReportSchema } from "../../src/cli/json-report.ts";
import { findScenario } from "../../scenarios/index.ts";
import { useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";

// "No silent ok", end to end: `faultline run --all` with the official SDK clients that connect, list tools and call
// echo and place_order once each, adding no retry of their own. Every scenario's result must be backed by what the
// scenario declares judges it: a pass or a fail by one of its declared checks, "not exercised" or "not judged" with a
// reason. Several minutes per client (the timeouts' example stalls run in real time), so it is an e2e test.
const server = useServer();
const cli = useBuiltCli();
const client = (name: string) => [process.execPath, fileURLToPath(new URL(`clients/${name}.ts`, import.meta.url))];

async function runAll(name: string): Promise<RunReport> {
  const file = join(cli.dir, `all-${name}.json`);
  // --timeout bounds a client that waits forever; the allowances keep the exit status about the run, not the client.
  const args = ["run", "--server", server.url, "--all", "--allow-unexercised", "--allow-unjudged", "--timeout", "40", "--json", file, "--", ...client(name)];
  const result = await cli.runAsync(args, {});
  assert.ok(result.code === 0 || result.code === 1, `faultline run exited ${result.code}: ${result.stderr}`);
  return RunReportSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** Every way a row's result is not backed by what its scenario declares, one line each. */
function dishonesty(report: RunReport): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => void (ok || problems.push(what));
  expect(report.scenarios.length >= 30, `only ${report.scenarios.length} scenarios ran`);
  for (const row of report.scenarios) {
    const judging = findScenario(row.scenario)!.judging;
    const exercisedBy = judging.exercisedBy ?? "fault";
    const declared = (status: string) => row.checks.filter((c) => c.status === status && judging.checks.includes(c.id as never)).map((c) => c.id);
    const where = `${row.scenario}: ${row.judgement} (${row.reasons.join("; ")}) with ${JSON.stringify(row.checks.map((c) => [c.id, c.status]))}`;
    expect(row.reasons.length > 0 && row.reasons.every((r) => r.length > 20), `no reason given: ${where}`);
    if (row.judgement === "fail") expect(declared("fail").length > 0, `a check the scenario does not declare failed it: ${where}`);
    if (row.judgement === "pass" && exercisedBy !== "control") expect(declared("pass").length + declared("warning").length > 0, `a pass no declared check judged: ${where}`);
    if (row.judgement === "pass" && exercisedBy === "fault") expect(row.faults.fired > 0, `a pass whose fault never fired: ${where}`);
    // A scenario whose journalled fault is only the way in (judging.reachedBy) is not exercised until one of those checks appears.
    const unreached = (judging.reachedBy ?? []).length > 0 && !row.checks.some((c) => judging.reachedBy!.includes(c.id as never));
    if (row.judgement === "not exercised") expect(row.faults.fired === 0 || unreached, `not exercised, yet the fault fired and nothing says its trouble was not reached: ${where}`);
    if (row.judgement === "pass" && (judging.reachedBy ?? []).length > 0) expect(!unreached, `a pass whose trouble beyond its fault was never reached: ${where}`);
    if (row.judgement === "not judged") expect(row.checks.every((c) => c.status === "info"), `not judged, yet a check judged: ${where}`);
  }
  return problems;
}

test("faultline run --all with the SDK v2 client backs every result with a check the scenario declares, or says why not", { timeout: 900_000 }, async () => {
  assert.deepEqual(dishonesty(await runAll("sdk-v2")), []);
});

test("faultline run --all with the SDK v1 client backs every result with a check the scenario declares, or says why not", { timeout: 900_000 }, async () => {
  assert.deepEqual(dishonesty(await runAll("sdk-v1")), []);
});
