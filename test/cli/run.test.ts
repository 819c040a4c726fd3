import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RunReportSchema } from "../../src/cli/json-report.ts";
import { useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";
import { childrenNamed, parseXml, type XmlElement } from "./xml-parse.ts";

// `faultline run` as a CI job runs it: the built file outside the checkout, on the system's node, against a real server,
// with small clients from test/cli/clients/ (run on this test's node, which strips their types).
const server = useServer();
const cli = useBuiltCli();
const client = (name: string) => [process.execPath, fileURLToPath(new URL(`clients/${name}.ts`, import.meta.url))];
const SEQUENCE = 'errors.http_status_sequence={"statusCodes":[503,503,200],"retryAfter":1}';
// For the client that retries at once: a wait so long that no machine load makes its retries look patient.
const LONG_SEQUENCE = 'errors.http_status_sequence={"statusCodes":[503,503,200],"retryAfter":30}';

function run(args: string[], command: string[], env: Record<string, string> = {}) {
  return cli.runAsync(["run", "--server", server.url, ...args, "--", ...command], env);
}

/** A fresh file name in the CLI's directory. */
function reportFile(ext: string): string {
  return join(cli.dir, `report-${Math.random().toString(36).slice(2)}.${ext}`);
}

/** Runs with --json into the CLI's directory and returns the result with the report, read through its schema. */
async function runJson(args: string[], command: string[], env: Record<string, string> = {}) {
  const file = reportFile("json");
  const result = await run(["--json", file, ...args], command, env);
  return { ...result, report: RunReportSchema.parse(JSON.parse(readFileSync(file, "utf8"))) };
}

/** A row of the results table by its cells (the table pads them with two spaces or more, never one). */
function rowOf(stdout: string, scenario: string, nth = 0) {
  const row = stdout.split("\n").filter((line) => line.startsWith(`${scenario} `))[nth];
  assert.ok(row, `no row ${nth} for ${scenario} in:\n${stdout}`);
  const [name, client, requests, faults, passed, failed, warnings, info, time, result] = row.split(/ {2,}/);
  return { name, client, requests: Number(requests), faults: Number(faults), passed: Number(passed), failed: Number(failed), warnings: Number(warnings), info: Number(info), time, result };
}

/** The reason lines the table prints under a row that did not pass. */
function reasonsOf(stdout: string, scenario: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${scenario} `));
  const reasons: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  - ")) break;
    reasons.push(line.slice(4));
  }
  return reasons;
}

/** Runs with --junit into the CLI's directory and returns the result with the parsed report. */
async function runJunit(args: string[], command: string[], env: Record<string, string> = {}) {
  const file = join(cli.dir, `junit-${Math.random().toString(36).slice(2)}.xml`);
  const result = await run(["--junit", file, ...args], command, env);
  return { ...result, junit: parseXml(readFileSync(file, "utf8")) };
}

function testcases(suite: XmlElement) {
  return childrenNamed(suite, "testcase").map((testcase) => ({
    name: testcase.attributes.name,
    failure: childrenNamed(testcase, "failure")[0],
    out: childrenNamed(testcase, "system-out")[0]?.text,
  }));
}

test("exits 0 for a client that waits as Retry-After asks, with passing test cases in the JUnit report", async () => {
  const { code, stdout, stderr, junit } = await runJunit(["--scenario", SEQUENCE], client("behaves"));
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^scenario +client +requests +faults +passed +failed +warnings +info +time +result\n/);
  const row = rowOf(stdout, "errors.http_status_sequence");
  assert.deepEqual([row.client, row.faults, row.failed, row.result], ["exit 0", 2, 0, "pass"]);
  assert.match(row.time ?? "", /^\d+\.\d s$/);
  assert.equal(junit.name, "testsuites");
  assert.equal(junit.attributes.failures, "0");
  const [suite] = childrenNamed(junit, "testsuite");
  assert.equal(suite?.attributes.name, "errors.http_status_sequence");
  const cases = testcases(suite!);
  assert.deepEqual([cases[0]?.name, cases[1]?.name], ["client-run", "fault-judged"]);
  const honoured = cases.find((c) => c.name === "http-retry-after-honoured");
  assert.ok(honoured, JSON.stringify(cases));
  assert.equal(honoured.failure, undefined);
  assert.match(honoured.out ?? "", /^pass: Waited \d+ ms after a 503/);
  assert.equal(suite!.attributes.tests, String(cases.length));
});

test("exits 1 for a client that retries before Retry-After, with the check's message and evidence in a <failure>", async () => {
  const { code, stdout, junit } = await runJunit(["--scenario", LONG_SEQUENCE], client("retries-too-soon"));
  assert.equal(code, 1);
  const row = rowOf(stdout, "errors.http_status_sequence");
  assert.equal(row.client, "exit 0");
  assert.ok(row.failed > 0, JSON.stringify(row));
  assert.equal(row.result, "FAIL");
  assert.equal(junit.attributes.failures, childrenNamed(junit, "testsuite")[0]?.attributes.failures);
  const honoured = testcases(childrenNamed(junit, "testsuite")[0]!).find((c) => c.name === "http-retry-after-honoured");
  assert.match(honoured?.failure?.attributes.message ?? "", /^Retried \d+ ms after a 503 to tools\/call echo that asked for Retry-After: 30 s/);
  assert.match(honoured?.failure?.text ?? "", /\nEvidence: journal entries \d+(, \d+)+$/);
});

test("exits 1 for a client that never reaches its session, failing the client-run case", async () => {
  const { code, stdout, junit } = await runJunit(["--scenario", "baseline"], client("never-connects"));
  assert.equal(code, 1);
  const row = rowOf(stdout, "baseline");
  assert.deepEqual([row.client, row.requests, row.result], ["exit 0", 0, "FAIL"]);
  assert.match(reasonsOf(stdout, "baseline")[0] ?? "", /^the command sent no request to the session/);
  const [clientRun] = testcases(childrenNamed(junit, "testsuite")[0]!);
  assert.equal(clientRun?.name, "client-run");
  assert.match(clientRun?.failure?.attributes.message ?? "", /the command sent no request to the session \(http:\/\/127\.0\.0\.1:\d+\/s\/\w+\/mcp\)/);
});

test("kills a client's whole process group at --timeout and fails the scenario", async () => {
  const pidFile = join(cli.dir, "hangs.pid");
  // A guard long enough for the client to start on a busy machine; the client never ends on its own, whatever the load.
  const { code, stdout, junit } = await runJunit(["--scenario", "baseline", "--timeout", "10"], client("hangs"), { HANGS_PID_FILE: pidFile });
  assert.equal(code, 1);
  assert.deepEqual([rowOf(stdout, "baseline").client, rowOf(stdout, "baseline").result], ["timed out after 10 s", "FAIL"]);
  const [clientRun] = testcases(childrenNamed(junit, "testsuite")[0]!);
  assert.match(clientRun?.failure?.attributes.message ?? "", /the command timed out after 10 s \(--timeout\) and was stopped/);
  assert.ok(existsSync(pidFile), "the client started its helper");
  await assertGone(JSON.parse(readFileSync(pidFile, "utf8")).pid);
});

// The timeout guards against hanging when the rule breaks (an orphaned client keeps the CLI's stderr open).
test("on SIGINT stops the client's process group, deletes the session and exits 2", { timeout: 300_000 }, async () => {
  const pidFile = join(cli.dir, "interrupted.pid");
  const { child, result } = cli.start(["run", "--server", server.url, "--scenario", "baseline", "--", ...client("hangs")], { HANGS_PID_FILE: pidFile });
  for (let tries = 0; !existsSync(pidFile); tries++) {
    assert.ok(tries < 600, "the hanging client never started");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGINT");
  const { code, stderr } = await result;
  assert.equal(code, 2);
  assert.match(stderr, /faultline: interrupted by SIGINT: the client command was stopped/);
  const { pid, session } = JSON.parse(readFileSync(pidFile, "utf8"));
  await assertGone(pid);
  assert.equal((await fetch(`${server.url}/api/sessions/${session}`)).status, 404);
});

/** Waits for a process to be gone; fails if it is still there after many polls. */
async function assertGone(pid: number) {
  for (let tries = 0; isRunning(pid); tries++) {
    assert.ok(tries < 100, `process ${pid} outlived the run`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a process is alive (a zombie waiting to be reaped is not). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1];
  return state !== "Z" && state !== "X";
}

test("--all runs every catalogue scenario with its example params but elicitation.url_mode and replay, and says it skipped those", async () => {
  const catalogue = ((await (await fetch(`${server.url}/api/scenarios`)).json()) as { scenarios: { id: string }[] }).scenarios.map((s) => s.id);
  // `true` sends nothing, like never-connects, without starting a node per scenario.
  const { code, stdout, junit } = await runJunit(["--all"], ["true"]);
  assert.equal(code, 1, "a client that sends nothing fails every scenario");
  assert.match(stdout, /^skipped elicitation\.url_mode: it asks the client's user to open a URL/m);
  assert.match(stdout, /^skipped replay: it answers from a recording/m);
  assert.deepEqual(
    childrenNamed(junit, "testsuite").map((suite) => suite.attributes.name),
    catalogue.filter((id) => id !== "elicitation.url_mode" && id !== "replay"),
  );
  const params = childrenNamed(childrenNamed(junit, "testsuite").find((s) => s.attributes.name === "errors.tool_error")!, "properties")[0]!;
  assert.deepEqual(JSON.parse(childrenNamed(params, "property").find((p) => p.attributes.name === "faultline.params")!.attributes.value!), {
    nth: 1,
    tools: ["place_order"],
    text: "Payment declined",
  });
  const n = catalogue.length - 2;
  assert.match(stdout, new RegExp(`^${n} scenarios run: 0 pass, ${n} fail; 2 skipped; the run fails$`, "m"));
});

test("deletes each session after its run, and keeps it with --keep", async () => {
  const sessionOf = (junit: XmlElement) =>
    childrenNamed(childrenNamed(childrenNamed(junit, "testsuite")[0]!, "properties")[0]!, "property").find((p) => p.attributes.name === "faultline.session")!.attributes.value;
  const deleted = await runJunit(["--scenario", "baseline"], client("never-connects"));
  assert.equal((await fetch(`${server.url}/api/sessions/${sessionOf(deleted.junit)}`)).status, 404);
  const kept = await runJunit(["--scenario", "baseline", "--keep"], client("never-connects"));
  const id = sessionOf(kept.junit);
  assert.equal((await fetch(`${server.url}/api/sessions/${id}`)).status, 200);
  assert.match(kept.stderr, new RegExp(`kept session ${id} \\(baseline\\)`));
});

test("writes a Markdown summary with a table per scenario and a line per check", async () => {
  const file = join(cli.dir, "summary.md");
  const { code } = await run(["--scenario", LONG_SEQUENCE, "--scenario", "baseline", "--markdown", file], client("retries-too-soon"));
  assert.equal(code, 1);
  const markdown = readFileSync(file, "utf8");
  assert.match(markdown, /^\| `errors\.http_status_sequence` \| \*\*FAIL\*\* \| exit 0 \| \d+ \| 2 \|/m);
  assert.match(markdown, /^## `errors\.http_status_sequence`\n\nResult: \*\*FAIL\*\*\. The command exited with status 0 after \d+\.\d s, having sent \d+ requests; the fault fired 2 times \(entries \d+, \d+\); checks: \d+ passed, [1-9]\d* failed/m);
  assert.match(markdown, /^\| Check \| Status \| Message \| Evidence \|$/m);
  assert.match(markdown, /^\| `http-retry-after-honoured` \| \*\*fail\*\* \| Retried \d+ ms after a 503/m);
  assert.match(markdown, /^## `baseline`\n\nResult: pass\. .*; nothing was faulted \(a control scenario\); no check gave a result\.$/m);
});

// The official SDK clients, as a user's client would be: connect, list the tools, call echo and place_order once.
const JUDGED = 'errors.tool_error={"tools":["place_order"]}';
// By default errors.tool_error faults only run_configured_test_scenario, which these clients never call.
const NEVER_FIRES = "errors.tool_error";

test("an SDK v2 client passes a scenario whose fault fired and was judged, and is not exercised by one whose fault never fired, which fails the run", async () => {
  const { code, stdout, stderr, report } = await runJson(["--scenario", JUDGED, "--scenario", NEVER_FIRES], client("sdk-v2"));
  assert.equal(code, 1, stderr);
  const judged = rowOf(stdout, "errors.tool_error", 0);
  assert.deepEqual([judged.client, judged.faults, judged.failed, judged.result], ["exit 0", 1, 0, "pass"]);
  assert.ok(judged.passed > 0, JSON.stringify(judged));
  const never = rowOf(stdout, "errors.tool_error", 1);
  assert.deepEqual([never.client, never.faults, never.result], ["exit 0", 0, "NOT EXERCISED"]);
  assert.ok(never.requests > 0, "the client reached the session");
  assert.match(stdout, /^  - not exercised: the fault never fired: the client sent \d+ requests \([^)]*tools\/call echo/m);
  assert.equal(report.failed, true);
  const [pass, notExercised] = report.scenarios;
  assert.deepEqual([pass?.result, pass?.faults.fired, pass?.faults.kinds, pass?.command.exitCode], ["pass", 1, { tool_error: 1 }, 0]);
  assert.equal(pass?.faults.entries.length, 1);
  assert.ok(pass?.checks.some((check) => check.status === "pass" && check.evidence.includes(pass.faults.entries[0]!)), JSON.stringify(pass?.checks));
  assert.deepEqual([notExercised?.result, notExercised?.failsRun, notExercised?.faults.fired], ["not exercised", true, 0]);
  assert.equal(notExercised?.requests, never.requests);
  // Each scenario's client output sits between a header and a footer on stderr, in the order the scenarios ran.
  const blocks = [...stderr.matchAll(/^faultline: ── (\S+) \((\d) of 2\), session \S+: the client's output follows\n([\s\S]*?)^faultline: ── \1: the client's output ends \(\d+\.\d s\)$/gm)];
  assert.deepEqual(blocks.map((b) => [b[1], b[2]]), [["errors.tool_error", "1"], ["errors.tool_error", "2"]], stderr);
  for (const block of blocks) assert.match(block[3]!, /^sdk-v2: place_order (ok|failed)/m);
});

test("reads how each scenario is exercised from the server: a control passes despite its delays, an answers scenario passes on its check", async () => {
  const { code, stdout, stderr, report } = await runJson(["--scenario", 'baseline={"delayMs":50}', "--scenario", 'pagination.bad_cursor={"pageSize":1,"expiredCursor":2}'], client("sdk-v2"));
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  const [control, answers] = report.scenarios;
  assert.deepEqual([control?.result, answers?.result], ["pass", "pass"], stdout);
  assert.ok((control?.faults.fired ?? 0) > 0, "baseline's delays are journalled as its fixture's faults");
  assert.match(control!.reasons.at(-1)!, /^a control scenario/);
  assert.ok(answers?.checks.some((c) => c.id === "cursor-not-looped" && c.status === "pass"), JSON.stringify(answers?.checks));
});

test("with --allow-unexercised an SDK v1 client's never-fired scenario is reported as allowed, and the run passes", async () => {
  const { code, stdout, stderr } = await run(["--scenario", JUDGED, "--scenario", NEVER_FIRES, "--allow-unexercised"], client("sdk-v1"));
  assert.equal(code, 0, stderr);
  assert.equal(rowOf(stdout, "errors.tool_error", 0).result, "pass");
  assert.equal(rowOf(stdout, "errors.tool_error", 1).result, "not exercised (allowed)");
  assert.match(stdout, /^2 scenarios run: 1 pass, 0 fail, 1 not exercised; the run passes$/m);
});

test("fails the row of a client that exits 1 although its checks pass, and passes it with --ignore-exit", async () => {
  const failed = await runJunit(["--scenario", JUDGED], client("exits-1"));
  assert.equal(failed.code, 1);
  assert.deepEqual([rowOf(failed.stdout, "errors.tool_error").client, rowOf(failed.stdout, "errors.tool_error").result], ["exit 1", "FAIL"]);
  assert.deepEqual(reasonsOf(failed.stdout, "errors.tool_error")[0], "the command exited with status 1");
  const [clientRun] = testcases(childrenNamed(failed.junit, "testsuite")[0]!);
  assert.equal(clientRun?.failure?.attributes.message, "the command exited with status 1");
  const ignored = await run(["--scenario", JUDGED, "--ignore-exit"], client("exits-1"));
  assert.equal(ignored.code, 0, ignored.stderr);
  assert.deepEqual([rowOf(ignored.stdout, "errors.tool_error").client, rowOf(ignored.stdout, "errors.tool_error").result], ["exit 1", "pass"]);
});

test("reports a command killed at --timeout as timed out after N s in the table, JUnit, Markdown and JSON, never by the exit 0 it gave on SIGTERM", async () => {
  const markdownFile = reportFile("md");
  const junitFile = reportFile("xml");
  const { code, stdout, report } = await runJson(["--scenario", "baseline", "--timeout", "4", "--markdown", markdownFile, "--junit", junitFile], client("hangs-exits-0"));
  assert.equal(code, 1);
  assert.deepEqual([rowOf(stdout, "baseline").client, rowOf(stdout, "baseline").result], ["timed out after 4 s", "FAIL"]);
  const [clientRun] = testcases(childrenNamed(parseXml(readFileSync(junitFile, "utf8")), "testsuite")[0]!);
  assert.match(clientRun?.failure?.attributes.message ?? "", /^the command timed out after 4 s \(--timeout\) and was stopped/);
  assert.doesNotMatch(clientRun?.failure?.text ?? "", /exit/);
  const markdown = readFileSync(markdownFile, "utf8");
  assert.match(markdown, /^\| `baseline` \| \*\*FAIL\*\* \| timed out after 4 s \|/m);
  assert.match(markdown, /^Result: \*\*FAIL\*\*\. The command timed out after 4 s \(--timeout\) and was stopped, having sent/m);
  assert.doesNotMatch(markdown, /exit 0|status 0/);
  const [scenario] = report.scenarios;
  assert.deepEqual([scenario?.command.status, scenario?.command.timedOut, scenario?.command.exitCode, scenario?.command.failed], ["timed out after 4 s", true, null, true]);
});

test("reports a fault that fired with no check to judge what followed as not judged, failing the run unless --allow-unjudged", async () => {
  // The v2 client's first POST takes the 503 and connect() throws: the client exits 1 having sent nothing else.
  const sequence = 'errors.http_status_sequence={"statusCodes":[503,200]}';
  const unjudged = await runJson(["--scenario", sequence, "--ignore-exit"], client("sdk-v2"));
  assert.equal(unjudged.code, 1, unjudged.stderr);
  const row = rowOf(unjudged.stdout, "errors.http_status_sequence");
  assert.deepEqual([row.requests, row.faults, row.passed, row.failed, row.result], [1, 1, 0, 0, "NOT JUDGED"]);
  const reasons = reasonsOf(unjudged.stdout, "errors.http_status_sequence");
  assert.match(reasons.at(-1) ?? "", /^not judged: no check judged what the client did: the fault fired 1 time \(entry 1; first \S+ got http_status: POST 1 -> statusCodes\[0\] = 503\), and the client sent nothing after it/);
  assert.equal(unjudged.report.scenarios[0]?.judgement, "not judged");
  const allowed = await run(["--scenario", sequence, "--ignore-exit", "--allow-unjudged"], client("sdk-v2"));
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(rowOf(allowed.stdout, "errors.http_status_sequence").result, "not judged (allowed)");
});

test("sends FAULTLINE_ADMIN_TOKEN as a bearer token on every API request", async (t) => {
  // A recording proxy in front of the real server.
  const seen: string[] = [];
  const proxy = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? "(none)"}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => ["content-type", "authorization"].includes(name))) as Record<string, string>;
    const answer = await fetch(`${server.url}${req.url}`, { method: req.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  t.after(() => proxy.close());
  const address = proxy.address();
  assert.ok(address && typeof address === "object");
  const result = await cli.runAsync(
    ["run", "--server", `http://127.0.0.1:${address.port}`, "--scenario", "baseline", "--", ...client("never-connects")],
    { FAULTLINE_ADMIN_TOKEN: "s3cret" },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.ok(seen.length >= 4, seen.join("\n"));
  for (const line of seen) assert.match(line, /^(POST|GET|DELETE) \/api\/sessions\S* Bearer s3cret$/);
});

test("exits 2 for usage errors, naming the option", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["run", "--server", server.url, "--config", "no-such.json", "--", "true"], /--config: cannot read no-such\.json: ENOENT/],
    [["run", "--server", server.url, "--scenario", "baseline"], /missing the client command/],
    [["run", "--server", server.url, "--", "true"], /missing --scenario ID \(or --all\)/],
    [["run", "--server", server.url, "--all", "--scenario", "baseline", "--", "true"], /either --all or --scenario/],
    [["run", "--server", server.url, "--scenario", "baseline={nth:2}", "--", "true"], /--scenario baseline: the params are not valid JSON/],
    [["run", "--server", server.url, "--scenario", "baseline=[1]", "--", "true"], /--scenario baseline: the params must be a JSON object/],
    [["run", "--server", server.url, "--scenario", "baseline", "--timeout", "0", "--", "true"], /--timeout: must be a number of seconds above 0/],
    [["run", "--server", "localhost:8787", "--scenario", "baseline", "--", "true"], /--server: must be an http or https URL/],
    [["run", "--server", server.url, "--scenario", "baseline", "--", "./no-such-client"], /cannot run "\.\/no-such-client": ENOENT/],
    [["run", "--server", server.url, "--scenario", "baseline", "--junit", "no/such/dir/junit.xml", "--", "true"], /--junit: cannot write no\/such\/dir\/junit\.xml: ENOENT/],
    [["run", "--server", server.url, "--scenario", "baseline", "--markdown", "no/such/dir/s.md", "--", "true"], /--markdown: cannot write no\/such\/dir\/s\.md: ENOENT/],
    [["run", "--server", server.url, "--scenario", "baseline", "--json", "no/such/dir/r.json", "--", "true"], /--json: cannot write no\/such\/dir\/r\.json: ENOENT/],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = await cli.runAsync(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, message);
    assert.equal(stdout, "", "nothing ran: the mistake is caught before the first scenario ends");
  }
});

test("exits 2 when the server refuses the scenario or cannot be reached", async () => {
  const unknown = await run(["--scenario", "no.such_scenario"], ["true"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/api\/sessions answered 400: scenario: Unknown scenario 'no\.such_scenario'/);
  assert.equal(unknown.stdout, "");
  const badParams = await run(["--scenario", 'errors.tool_error={"nth":"two"}'], ["true"]);
  assert.equal(badParams.code, 2);
  assert.match(badParams.stderr, /answered 400: params\.nth/);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = await cli.runAsync(["run", "--server", `http://127.0.0.1:${port}`, "--scenario", "baseline", "--", "true"]);
  assert.equal(unreachable.code, 2);
  assert.match(unreachable.stderr, /cannot reach the Faultline server: POST http:\/\/127\.0\.0\.1:\d+\/api\/sessions: .*ECONNREFUSED/);
});
