import { spawn } from "node:child_process";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { nodeVersion, useBuiltCli } from "./built-cli.ts";

// `faultline classify` as users run it: the built file, outside the checkout, on the system's node (20 here).
const cli = useBuiltCli();
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/classify/${name}`, import.meta.url));
const run = (args: string[], input?: string, env?: Record<string, string>) => cli.run(args, input, env);

test("runs as one built file outside the checkout on the system's node", (t) => {
  t.diagnostic(`node ${nodeVersion(cli.node)} at ${cli.node}, CLI at ${cli.file}`);
  assert.ok(!cli.file.startsWith(fileURLToPath(new URL("../..", import.meta.url))));
  const { code, stdout } = run(["--help"]);
  assert.equal(code, 0);
  assert.match(stdout, /^Usage: faultline <command>/);
  assert.match(stdout, /^ {2}classify /m);
  assert.match(stdout, /^ {2}run /m);
});

test("prints usage with --help and exits 0", () => {
  const { code, stdout } = run(["classify", "--help"]);
  assert.equal(code, 0);
  assert.match(stdout, /^Usage: faultline classify \[options\] \[FILE\|-\]/);
  assert.match(stdout, /--expected-id/);
});

test("exits 0 and prints a one-line summary for a successful exchange file", () => {
  const { code, stdout, stderr } = run(["classify", fixture("exchange-flat.json")]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^TOOL_SUCCESS {2}layer=\S+ {2}status=200\n {2}retry: none/);
});

test("exits 1 and summarises outcome, layer, status, retry and findings for a 503 capture", () => {
  const { code, stdout } = run(["classify", fixture("503.http")]);
  assert.equal(code, 1);
  const [head, retry, ...findings] = stdout.trimEnd().split("\n");
  assert.equal(head, "HTTP_ERROR  layer=transport  status=503");
  assert.match(retry ?? "", /^ {2}retry: conditional after 2000 ms: /);
  // Continuation lines of a wrapped reason or message are indented further.
  for (const line of findings.filter((line) => !line.startsWith("    "))) assert.match(line, /^ {2}(error|warning|info) +\S+: /);
});

test("prints the verdict as JSON with --json", () => {
  const { code, stdout } = run(["classify", "--json", fixture("503.http")]);
  assert.equal(code, 1);
  const verdict = JSON.parse(stdout);
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.retry.afterMs, 2000);
});

test("reads a raw response from stdin when FILE is -", () => {
  const input = "HTTP/2 200\r\ncontent-type: application/json\r\n\r\n" + JSON.stringify({ jsonrpc: "2.0", id: 5, result: { content: [] } });
  const { code, stdout, stderr } = run(["classify", "--json", "--expected-id", "5", "-"], input);
  assert.equal(code, 0, stderr);
  assert.equal(JSON.parse(stdout).outcome, "TOOL_SUCCESS");
});

test("reads stdin when FILE is absent and stdin is not a terminal", () => {
  const input = JSON.stringify({ status: 503, headers: { "retry-after": "1" }, body: "busy" });
  const { code, stdout } = run(["classify", "--json"], input);
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout).outcome, "HTTP_ERROR");
});

test("reads stdin that arrives late through a pipe, as from curl on a busy machine, instead of failing with EAGAIN", async () => {
  // Node makes a piped stdin non-blocking once process.stdin is touched, so a synchronous read of it fails with
  // EAGAIN when the writer has not written yet (docs/journal-and-checks.md pipes curl into the CLI).
  const child = spawn(cli.node, [cli.file, "classify", "--json"], { cwd: cli.dir, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  await new Promise((resolve) => setTimeout(resolve, 500));
  child.stdin.write(JSON.stringify({ status: 503, headers: { "retry-after": "1" }, body: "busy" }).slice(0, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.stdin.end(JSON.stringify({ status: 503, headers: { "retry-after": "1" }, body: "busy" }).slice(20));
  assert.equal(await closed, 1, stderr);
  assert.equal(JSON.parse(stdout).outcome, "HTTP_ERROR");
});

test("passes --expected-id, --method and --protocol-version to a raw response", () => {
  const { code, stdout } = run(["classify", "--json", "--expected-id", "1", "--method", "tools/call", "--protocol-version", "2025-11-25", fixture("tool-error.http")]);
  assert.equal(code, 1);
  const verdict = JSON.parse(stdout);
  assert.equal(verdict.outcome, "TOOL_ERROR");
  assert.equal(verdict.protocolVersion, "2025-11-25");
});

const real = (name: string) => fixture(`real/raw/${name}`);

test("--request gives the raw request beside the response: a 400 to a 2026-07-28 request of the SDK v1 server falls back to initialize", () => {
  const base = "sdk-v1-stateful-sse.legacy-modern-request";
  const { code, stdout } = run(["classify", "--json", "--request", real(`${base}.request.http`), real(`${base}.response.http`)]);
  assert.equal(code, 1);
  const verdict = JSON.parse(stdout);
  assert.equal(verdict.retry.decision, "legacy-fallback");
  assert.equal(verdict.protocolVersionSource, "header");
  assert.equal(verdict.expectedId, 10);
});

test("--http-method GET judges a captured standby stream as open and exits 0", () => {
  const { code, stdout } = run(["classify", "--http-method", "GET", real("sdk-v1-stateful-sse.legacy-get-stream.response.http")]);
  assert.equal(code, 0, stdout);
  assert.match(stdout, /^STREAM_OPEN {2}layer=transport {2}status=200/);
});

test("--session-id turns a 404 into re-initialize advice", () => {
  const { code, stdout } = run(["classify", "--json", "--session-id", "abc", real("fastmcp.legacy-after-delete.response.http")]);
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout).retry.decision, "reinitialize");
});

test("--request, --http-method and --session-id with JSON input are a usage error", () => {
  const { code, stderr } = run(["classify", "--session-id", "abc", fixture("exchanges.json")]);
  assert.equal(code, 2);
  assert.match(stderr, /--session-id applies only to a raw HTTP response/);
});

test("a --request file that is not an HTTP request is an input error naming --request", () => {
  const { code, stderr } = run(["classify", "--request", fixture("503.http"), fixture("503.http")]);
  assert.equal(code, 2);
  assert.match(stderr, /--request: Expected a request line/);
});

test("exits 1 when any exchange of an array fails, labelling each summary with its index", () => {
  const { code, stdout } = run(["classify", fixture("exchanges.json")]);
  assert.equal(code, 1);
  assert.deepEqual(
    stdout.split("\n").filter((line) => line.startsWith("[")).map((line) => line.split("  ")[0] + " " + line.split("  ")[1]),
    ["[0] TOOL_SUCCESS", "[1] HTTP_ERROR", "[2] TOOL_ERROR"],
  );
});

test("prints an array of verdicts for an array with --json", () => {
  const { stdout } = run(["classify", "--json", fixture("exchanges.json")]);
  assert.deepEqual(JSON.parse(stdout).map((verdict: { outcome: string }) => verdict.outcome), ["TOOL_SUCCESS", "HTTP_ERROR", "TOOL_ERROR"]);
});

test("classifies the JSON-RPC entries of a HAR and reports skipped entries on stderr", () => {
  const { code, stdout, stderr } = run(["classify", "--json", fixture("session.har")]);
  assert.equal(code, 1);
  const body = JSON.parse(stdout);
  assert.deepEqual(body.entries.map(({ index }: { index: number }) => index), [0, 1, 3, 4]);
  assert.equal(body.entries[3].verdict.outcome, "TOOL_ERROR");
  assert.match(stderr, /skipped HAR entry 5: response.status 0/);
});

test("labels HAR summaries with entry index, method and id", () => {
  const { stdout } = run(["classify", fixture("session.har")]);
  assert.match(stdout, /^entry 4: tools\/call id=3 {2}TOOL_ERROR {2}layer=application/m);
  assert.match(stdout, /^entry 1: notifications\/initialized {2}NOTIFICATION_ACCEPTED/m);
});

test("exits 2 naming the path of an invalid array element", () => {
  const { code, stdout, stderr } = run(["classify", fixture("invalid-element.json")]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.match(stderr, /^faultline: invalid input:\n {2}1\.response\.status: .*\(invalid_type\)\n$/);
});

test("exits 2 for invalid JSON", () => {
  const { code, stderr } = run(["classify"], '{"status": ');
  assert.equal(code, 2);
  assert.match(stderr, /\(root\): The body is not valid JSON/);
});

test("exits 2 for a raw response with a broken header, naming the line", () => {
  const { code, stderr } = run(["classify"], "HTTP/1.1 200 OK\nnot a header\n\n{}");
  assert.equal(code, 2);
  assert.match(stderr, /\(body\): Invalid header line "not a header".*\(line 2\) \(invalid_header\)/);
});

test("exits 2 naming --expected-id when it is empty", () => {
  const { code, stderr } = run(["classify", "--expected-id=", fixture("503.http")]);
  assert.equal(code, 2);
  assert.match(stderr, /--expected-id: must not be empty/);
});

test("exits 2 when raw-HTTP options are given with JSON input, in grammatical English", () => {
  const one = run(["classify", "--expected-id", "1", fixture("exchange-flat.json")]);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /--expected-id applies only to a raw HTTP response/);
  const two = run(["classify", "--expected-id", "1", "--method", "tools/list", fixture("exchange-flat.json")]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /--expected-id, --method apply only to a raw HTTP response/);
});

test("shows a tool error's own text in the summary", () => {
  const { code, stdout } = run(["classify", fixture("tool-error.http")]);
  assert.equal(code, 1);
  assert.match(stdout, /^TOOL_ERROR {2}layer=application {2}status=200\n {2}tool error: City not found: Atlantis\n/);
});

test("lists findings by severity: errors, then warnings, then infos", () => {
  // The classifier finds HTTP_ERROR_BODY (info) before RETRY_AFTER_INVALID (warning) here.
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x" } });
  const input = JSON.stringify({ status: 503, headers: { "retry-after": "soon", "content-type": "application/json" }, body, expectedId: 1 });
  const json = JSON.parse(run(["classify", "--json"], input).stdout);
  assert.deepEqual(json.findings.map((f: { severity: string }) => f.severity), ["info", "warning"]);
  const { stdout } = run(["classify"], input);
  const severities = stdout.split("\n").flatMap((line) => /^ {2}(error|warning|info) /.exec(line)?.[1] ?? []);
  assert.deepEqual(severities, ["warning", "info"]);
});

test("wraps retry reasons and findings to $COLUMNS when stdout is not a terminal, and to 80 columns without it", () => {
  for (const [columns, width] of [["40", 40], ["", 80]] as const) {
    const { stdout } = run(["classify", fixture("503.http")], "", { COLUMNS: columns });
    const lines = stdout.trimEnd().split("\n");
    assert.ok(lines.length > 3, stdout);
    for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
    // A continuation line is indented under its first line, and nothing of the reason is lost.
    assert.match(stdout, /\n {4}\S/);
    const verdict = JSON.parse(run(["classify", "--json", fixture("503.http")]).stdout);
    assert.ok(stdout.replace(/\s+/g, " ").includes(verdict.retry.reason.replace(/\s+/g, " ")));
  }
});

test("says once, under the summaries, that no expected id was known, instead of once per response", () => {
  const ok = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } });
  const headers = { "content-type": "application/json" };
  const input = JSON.stringify([{ status: 200, headers, body: ok(1) }, { status: 200, headers, body: ok(2), expectedId: 2 }, { status: 200, headers, body: ok(3) }]);
  const { stdout } = run(["classify"], input);
  assert.doesNotMatch(stdout, /EXPECTED_ID_UNKNOWN/);
  assert.equal(stdout.match(/no expected JSON-RPC id was known/g)?.length, 1);
  assert.match(stdout, /for 2 of 3 responses/);
  const known = run(["classify", "--expected-id", "1", fixture("tool-error.http")]);
  assert.doesNotMatch(known.stdout, /expected JSON-RPC id/);
});

test("suggests the raw HTTP form for input that is neither JSON nor starts with HTTP/", () => {
  const { code, stderr } = run(["classify"], "content-type: application/json\n\n{}");
  assert.equal(code, 2);
  assert.match(stderr, /not valid JSON/);
  assert.match(stderr, /hint: an HTTP response must be given as `curl -si URL …` prints it, starting with its status line/);
});

test("says that the status line and headers are missing for a body captured with curl -s, not the schema's complaints", () => {
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } });
  const sse = `event: message\ndata: ${message}\n\n`;
  for (const [input, what] of [[message, "A JSON-RPC message"], [`[${message}]`, "A JSON-RPC batch"], [sse, "An SSE stream"]] as const) {
    const { code, stdout, stderr } = run(["classify"], input);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.equal(
      stderr,
      `faultline: invalid input:\n  (root): ${what} alone, as \`curl -s\` prints a body: the status line and headers are missing. ` +
        "Capture the response with `curl -si`, or give {status, headers?, body} (missing_status_line)\n",
    );
  }
});

test("exits 2 for a file that does not exist", () => {
  const { code, stderr } = run(["classify", fixture("missing.json")]);
  assert.equal(code, 2);
  assert.match(stderr, /cannot read .*missing\.json: ENOENT/);
});

test("exits 2 for an unknown option, an unknown command, a missing command and extra arguments", () => {
  for (const args of [["classify", "--bogus"], ["judge"], [], ["classify", "a.json", "b.json"]]) {
    const { code, stderr } = run(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, /Run 'faultline --help' for usage/);
  }
});
