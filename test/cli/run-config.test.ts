import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { UsageError } from "../../src/cli/errors.ts";
import { parseRunArgs } from "../../src/cli/run-args.ts";
import { parseRunConfig, readRunConfig, RunConfigSchema, type RunConfig } from "../../src/cli/run-config.ts";

const none = () => undefined;
const FULL: RunConfig = {
  server: "http://127.0.0.1:9999",
  scenarios: [{ id: "errors.http_status_sequence", params: { statusCodes: [503, 200] } }, { id: "baseline" }],
  command: ["node", "client.mjs", "--flag"],
  timeout: 12,
  reports: { junit: "j.xml", markdown: "s.md", json: "r.json" },
  ignoreExit: true,
  allowUnexercised: true,
  allowUnjudged: true,
  keep: true,
  restartAfterTask: true,
};
const SAME_FLAGS = [
  "--server", "http://127.0.0.1:9999",
  "--scenario", 'errors.http_status_sequence={"statusCodes":[503,200]}',
  "--scenario", "baseline",
  "--timeout", "12",
  "--junit", "j.xml", "--markdown", "s.md", "--json", "r.json",
  "--ignore-exit", "--allow-unexercised", "--allow-unjudged", "--keep", "--restart-after-task",
  "--", "node", "client.mjs", "--flag",
];

test("a faultline.json gives the same run as the same flags", () => {
  const fromFile = parseRunArgs([], () => FULL, {});
  const fromFlags = parseRunArgs(SAME_FLAGS, none, {});
  assert.ok(fromFile !== undefined);
  assert.deepEqual(fromFile, fromFlags);
});

test('scenarios "all" in the file is --all', () => {
  assert.deepEqual(parseRunArgs([], () => ({ scenarios: "all", command: ["true"] }), {}), parseRunArgs(["--all", "--", "true"], none, {}));
});

test("a flag on the command line wins over the file", () => {
  const options = parseRunArgs(["--server", "http://127.0.0.1:1234", "--scenario", "baseline", "--timeout", "3", "--", "other"], () => FULL, {});
  assert.equal(options?.server, "http://127.0.0.1:1234");
  assert.deepEqual(options?.scenarios, [{ id: "baseline", params: {} }]);
  assert.equal(options?.timeoutMs, 3000);
  assert.deepEqual(options?.command, ["other"]);
  assert.equal(options?.junit, "j.xml", "what the command line does not say still comes from the file");
});

test("the server is --server, else FAULTLINE_SERVER, else http://127.0.0.1:8787", () => {
  const args = ["--scenario", "baseline", "--", "true"];
  assert.equal(parseRunArgs(args, none, {})?.server, "http://127.0.0.1:8787");
  assert.equal(parseRunArgs(args, none, { FAULTLINE_SERVER: "http://10.0.0.5:80/" })?.server, "http://10.0.0.5");
  assert.equal(parseRunArgs(["--server", "http://127.0.0.1:1", ...args], none, { FAULTLINE_SERVER: "http://10.0.0.5" })?.server, "http://127.0.0.1:1");
  assert.throws(() => parseRunArgs(args, none, { FAULTLINE_SERVER: "nope" }), /^UsageError: FAULTLINE_SERVER: "nope" is not a URL/);
});

test("a broken faultline.json is refused with the path in the file and the rule", () => {
  const text = JSON.stringify({ scenarios: [{ id: "baseline", params: "nth=2" }], command: [], timeout: -1, extra: 1 });
  assert.throws(() => parseRunConfig(text, "faultline.json"), (error: Error) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /^faultline\.json is not a valid faultline\.json:/);
    assert.match(error.message, /\n {2}scenarios\[0\]\.params: .*\(invalid_type\)/);
    assert.match(error.message, /\n {2}command: .*\(too_small\)/);
    assert.match(error.message, /\n {2}timeout: .*\(too_small\)/);
    assert.match(error.message, /\n {2}\(the file\): Unrecognized key: "extra" \(unrecognized_keys\)/);
    return true;
  });
  assert.throws(() => parseRunConfig("{ scenarios: 1 }", "ci/faultline.json"), /^UsageError: ci\/faultline\.json: not valid JSON: /);
});

test("./faultline.json is read when present and --config names another, which must exist", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-config-"));
  const cwd = process.cwd();
  t.after(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });
  process.chdir(dir);
  assert.equal(readRunConfig(undefined), undefined, "no file, no config: the flags must say it all");
  writeFileSync("faultline.json", JSON.stringify({ scenarios: "all", command: ["a"] }));
  writeFileSync("other.json", JSON.stringify({ scenarios: "all", command: ["b"] }));
  assert.deepEqual(readRunConfig(undefined)?.command, ["a"]);
  assert.deepEqual(readRunConfig("other.json")?.command, ["b"]);
  assert.throws(() => readRunConfig("missing.json"), /^UsageError: --config: cannot read missing\.json: ENOENT/);
});

test("the JSON Schema describes every field of the zod schema and no other", () => {
  const schema = z.toJSONSchema(RunConfigSchema, { io: "input" }) as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
  assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(RunConfigSchema.shape).sort());
  assert.deepEqual(schema.required.sort(), ["command", "scenarios"]);
  assert.equal(schema.additionalProperties, false);
});
