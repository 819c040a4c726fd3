import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
  assert.match(stdout, /^scenario +client +passed +failed +warnings +info +result\n/);
  assert.match(stdout, /^errors\.http_status_sequence +exit 0 +\d+ +0 +0 +\d+ +ok$/m);
  assert.equal(junit.name, "testsuites");
  assert.equal(junit.attributes.failures, "0");
  const [suite] = childrenNamed(junit, "testsuite");
  assert.equal(suite?.attributes.name, "errors.http_status_sequence");
  const cases = testcases(suite!);
  assert.equal(cases[0]?.name, "client-run");
  const honoured = cases.find((c) => c.name === "http-retry-after-honoured");
  assert.ok(honoured, JSON.stringify(cases));
  assert.equal(honoured.failure, undefined);
  assert.match(honoured.out ?? "", /^pass: Waited \d+ ms after a 503/);
  assert.equal(suite!.attributes.tests, String(cases.length));
});

test("exits 1 for a client that retries before Retry-After, with the check's message and evidence in a <failure>", async () => {
  const { code, stdout, junit } = await runJunit(["--scenario", LONG_SEQUENCE], client("retries-too-soon"));
  assert.equal(code, 1);
  assert.match(stdout, /^errors\.http_status_sequence +exit 0 +\d+ +[1-9]\d* +\d+ +\d+ +FAIL$/m);
  assert.equal(junit.attributes.failures, childrenNamed(junit, "testsuite")[0]?.attributes.failures);
  const honoured = testcases(childrenNamed(junit, "testsuite")[0]!).find((c) => c.name === "http-retry-after-honoured");
  assert.match(honoured?.failure?.attributes.message ?? "", /^Retried \d+ ms after a 503 to tools\/call echo that asked for Retry-After: 30 s/);
  assert.match(honoured?.failure?.text ?? "", /\nEvidence: journal entries \d+(, \d+)+$/);
});

test("exits 1 for a client that never reaches its session, failing the client-run case", async () => {
  const { code, stdout, junit } = await runJunit(["--scenario", "baseline"], client("never-connects"));
  assert.equal(code, 1);
  assert.match(stdout, /^baseline +no requests +0 +0 +0 +0 +FAIL$/m);
  const [clientRun] = testcases(childrenNamed(junit, "testsuite")[0]!);
  assert.equal(clientRun?.name, "client-run");
  assert.match(clientRun?.failure?.attributes.message ?? "", /the command sent no request to the session \(http:\/\/127\.0\.0\.1:\d+\/s\/\w+\/mcp\)/);
});

test("kills a client's whole process group at --timeout and fails the scenario", async () => {
  const pidFile = join(cli.dir, "hangs.pid");
  // A guard long enough for the client to start on a busy machine; the client never ends on its own, whatever the load.
  const { code, stdout, junit } = await runJunit(["--scenario", "baseline", "--timeout", "10"], client("hangs"), { HANGS_PID_FILE: pidFile });
  assert.equal(code, 1);
  assert.match(stdout, /^baseline +timed out +\d+ +\d+ +\d+ +\d+ +FAIL$/m);
  const [clientRun] = testcases(childrenNamed(junit, "testsuite")[0]!);
  assert.match(clientRun?.failure?.attributes.message ?? "", /the command was still running after 10 s \(--timeout\) and was killed/);
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
  assert.match(stdout, new RegExp(`^${catalogue.length - 2} scenarios run, ${catalogue.length - 2} failed, 2 skipped$`, "m"));
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
  assert.match(markdown, /^\| `errors\.http_status_sequence` \| \*\*FAIL\*\* \| exit 0 \|/m);
  assert.match(markdown, /^## `errors\.http_status_sequence`\n\n\| Check \| Status \| Message \| Evidence \|$/m);
  assert.match(markdown, /^\| `http-retry-after-honoured` \| \*\*fail\*\* \| Retried \d+ ms after a 503/m);
  assert.match(markdown, /^## `baseline`\n\nNo check applied/m);
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
    [["run", "--scenario", "baseline", "--", "true"], /missing --server URL/],
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
