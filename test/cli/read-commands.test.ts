import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkLines, entryLine } from "../../src/cli/read-commands.ts";
import { colours } from "../../src/cli/colour.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";

// `faultline sessions`, `checks` and `journal` as a user runs them: the built file on the system node, outside the
// checkout, against a real server, compared with what the API itself answers.
let session: { id: string; mcpUrl: string };
const server = useServer(async (s) => {
  session = await createSession(s, "errors.http_status_sequence", { statusCodes: [503, 503, 200], retryAfter: 30 });
  // A client that retries at once, though asked to wait 30 s: the checks fail it.
  execFileSync(process.execPath, [fileURLToPath(new URL("clients/retries-too-soon.ts", import.meta.url))], { env: { ...process.env, FAULTLINE_MCP_URL: session.mcpUrl }, stdio: "ignore" });
});
const cli = useBuiltCli();
const api = async (path: string) => (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;

test("faultline sessions lists each session with its scenario and MCP URL", async () => {
  const { code, stdout, stderr } = await cli.runAsync(["sessions", "--server", server.url]);
  assert.equal(code, 0, stderr);
  assert.ok(stdout.split("\n").some((line) => line.startsWith(`${session.id}  errors.http_status_sequence  `) && line.endsWith(`  ${session.mcpUrl}`)), stdout);
  const json = await cli.runAsync(["sessions", "--server", server.url, "--json"]);
  assert.deepEqual(JSON.parse(json.stdout), (await api("/api/sessions")).sessions);
});

test("faultline checks prints each check with its evidence and exits 1 when one failed", async () => {
  const { checks } = (await api(`/api/sessions/${session.id}/checks`)) as { checks: Array<{ id: string; status: string; message: string; evidence: number[] }> };
  const failed = checks.find((c) => c.status === "fail");
  assert.ok(failed, `the client that retries too soon fails a check: ${JSON.stringify(checks)}`);
  const { code, stdout } = await cli.runAsync(["checks", session.id, "--server", server.url]);
  assert.equal(code, 1, stdout);
  assert.ok(stdout.includes(`fail    ${failed.id}: ${failed.message}\n        evidence: ${failed.evidence.map((s) => `#${s}`).join(", ")}\n`), stdout);
  assert.doesNotMatch(stdout, /\u001b\[/, "no colour in a pipe");
  const json = await cli.runAsync(["checks", session.id, "--server", server.url, "--json"]);
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stdout), checks);
});

test("faultline journal prints a line per exchange, with the fault injected", async () => {
  const { entries } = (await api(`/api/sessions/${session.id}/journal`)) as { entries: Array<{ seq: number }> };
  const { code, stdout, stderr } = await cli.runAsync(["journal", session.id, "--server", server.url]);
  assert.equal(code, 0, stderr);
  const lines = stdout.trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => line.split("  ")[0]), entries.map((e) => `#${e.seq}`));
  assert.ok(lines.some((line) => /POST tools\/call\(echo\) {2}503 {2}\d+ ms {2}fault=\S+/.test(line)), stdout);
  assert.match(lines.at(-1)!, /POST tools\/call\(echo\) {2}200 {2}\d+ ms {2}retry of #\d+/);
  const json = await cli.runAsync(["journal", session.id, "--server", server.url, "--json"]);
  assert.deepEqual(JSON.parse(json.stdout), entries);
});

test("the read commands name a session that does not exist and exit 2", async () => {
  for (const command of ["checks", "journal"]) {
    const { code, stderr } = await cli.runAsync([command, "no-such-session", "--server", server.url]);
    assert.equal(code, 2, command);
    assert.match(stderr, /answered 404: .*no-such-session/);
  }
  const { code, stderr } = await cli.runAsync(["checks", "--server", server.url]);
  assert.equal(code, 2);
  assert.match(stderr, /give one session id/);
});

test("the read commands go to FAULTLINE_SERVER when --server is not given", async () => {
  const { code, stdout } = await cli.runAsync(["sessions"], { FAULTLINE_SERVER: server.url });
  assert.equal(code, 0);
  assert.match(stdout, new RegExp(session.id));
});

test("colour is used on a terminal only, and never with NO_COLOR", () => {
  const check = { id: "x", status: "fail" as const, message: "m", evidence: [] };
  assert.match(checkLines(check, colours({ isTTY: true }, {})), /^\u001b\[31mfail {3}\u001b\[0m x: m\n$/);
  assert.equal(checkLines(check, colours({ isTTY: true }, { NO_COLOR: "1" })), "fail    x: m\n");
  assert.equal(checkLines(check, colours({ isTTY: false }, {})), "fail    x: m\n");
  const entry = { seq: 1, time: "t", durationMs: 2, request: { method: "POST" }, response: { status: 503 }, rpc: {} };
  assert.equal(entryLine(entry, colours({ isTTY: false }, {})), "#1  t  POST -  503  2 ms\n");
});

test("faultline --version prints the package's version", () => {
  const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  // The built file alone (copied outside the checkout) has no package around it; from the checkout it reads it.
  assert.equal(cli.run(["--version"]).stdout, "unknown\n");
  assert.equal(execFileSync(process.execPath, [fileURLToPath(new URL("../../bin/faultline.ts", import.meta.url)), "--version"], { encoding: "utf8" }), `${version}\n`);
});
