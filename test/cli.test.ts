import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../bin/faultline.ts", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/classify/${name}`, import.meta.url));

function run(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [cli, ...args], { input: input ?? "", encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

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
  for (const line of findings) assert.match(line, /^ {2}(error|warning|info) +\S+: /);
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

test("passes --expected-id, --method and --protocol-version to a raw response", () => {
  const { code, stdout } = run(["classify", "--json", "--expected-id", "1", "--method", "tools/call", "--protocol-version", "2025-11-25", fixture("tool-error.http")]);
  assert.equal(code, 1);
  const verdict = JSON.parse(stdout);
  assert.equal(verdict.outcome, "TOOL_ERROR");
  assert.equal(verdict.protocolVersion, "2025-11-25");
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

test("exits 2 when raw-HTTP options are given with JSON input", () => {
  const { code, stderr } = run(["classify", "--expected-id", "1", fixture("exchange-flat.json")]);
  assert.equal(code, 2);
  assert.match(stderr, /--expected-id apply only to a raw HTTP response/);
});

test("exits 2 for a file that does not exist", () => {
  const { code, stderr } = run(["classify", fixture("missing.json")]);
  assert.equal(code, 2);
  assert.match(stderr, /cannot read .*missing\.json: ENOENT/);
});

test("exits 2 for an unknown option, an unknown command and a missing command", () => {
  for (const args of [["classify", "--bogus"], ["judge"], []]) {
    const { code, stderr } = run(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, /Run 'faultline --help' for usage/);
  }
});
